// Every string of the page in English, French and Polish. Rulings come from the server in all three.
export const LANGS = ["en", "fr", "pl"];

const D = {
  en: {
    title: "Nine-ball", firstBreaker: "Who breaks first", rules: "Rules", rulesSeed: "Standard (the seed texts)", rulesFr: "French text, read literally", rulesPl: "Polish text, read literally", lang: "Language", newMatch: "New match", history: "History", play: "Play",
    modeComputer: "Against the computer", modeLocal: "Two players, one screen",
    modeNetwork: "Two players on a network", modePractice: "Practice", modeScore: "Scorekeeper (real table)",
    you: "You", computer: "Computer", player1: "Player 1", player2: "Player 2", level: "Level",
    raceTo: "Race to", start: "Start", cancel: "Cancel", breaks: "breaks", toAct: "to play",
    score: "Score", game: "Game", lowest: "Ball on", power: "Power", elevation: "Cue elevation",
    spin: "Tip offset (click the ball)", aimAid: "Aiming aid", pushOut: "Push out", shoot: "Shoot",
    replay: "Replay", slow: "Slow motion", step: "Step", pause: "Pause", ruling: "Referee",
    noRuling: "The break: place the cue ball behind the head string, aim and shoot.",
    historyTitle: "Game history", warning: "Warning: second foul in a row. A third foul loses the game (clause 12).",
    choiceTitle: "Your opponent pushed out", choiceText: "Shoot from here, or pass the shot back?",
    choiceShoot: "I shoot", choicePass: "Pass", inHandKitchen: "Ball in hand behind the head string: drag the cue ball.",
    inHandAnywhere: "Ball in hand: drag the cue ball anywhere.", invalidPlace: "The cue ball cannot go there",
    validPlace: "Good place", yourTurn: "Your turn", waiting: "Waiting for", matchOver: "Match over",
    wins: "wins the match", newGame: "New match", undo: "Undo", analysis: "Computer's analysis",
    forfeit: "Concede game", pocketed: "Pocketed", keys: "Keys: ← → aim (Shift: fine), ↑ ↓ power, Space shoot. A click on the table locks or frees the aim.",
    linksTitle: "Send each player their own link", seat1Link: "Player 1's link", seat2Link: "Player 2's link",
    spectatorLink: "Spectators", spectator: "You are watching", connecting: "Connecting…",
    disconnected: "Connection lost: rejoining…", first: "Hit first", offTable: "Off the table", rails: "Touched a rail",
    pocketedBalls: "Pocketed", scratch: "cue", enterShot: "Enter the shot", nothing: "nothing",
    matches: "Matches", stats: "Statistics", players: "Players", won: "won", gamesWon: "Games won",
    ballsPerInning: "Balls per inning", fouls: "Fouls", breakAndRuns: "Break and runs", close: "Close",
    continueMatch: "Continue the last match", practiceHint: "Practice: drag any ball to move it.",
    clause: "clause", foul: "Foul", legal: "Legal", breakShot: "Break", help: "Aim with the mouse (or touch, or the arrow keys), set the power and press Shoot.",
    "foul.illegal_break": "illegal break", "foul.cue_ball_pocketed": "cue ball pocketed",
    "foul.cue_ball_off_table": "cue ball off the table", "foul.object_ball_off_table": "object ball off the table",
    "foul.no_contact": "no ball hit", "foul.wrong_ball_first": "wrong ball first", "foul.no_rail": "no rail",
    "foul.obstruction_moved": "obstructing ball moved",
  },
  fr: {
    title: "Jeu de la 9", firstBreaker: "Qui fait le premier bris", rules: "Règles", rulesSeed: "Standard (textes de référence)", rulesFr: "Texte français, à la lettre", rulesPl: "Texte polonais, à la lettre", lang: "Langue", newMatch: "Nouveau match", history: "Historique", play: "Jouer",
    modeComputer: "Contre l'ordinateur", modeLocal: "Deux joueurs, un écran",
    modeNetwork: "Deux joueurs en réseau", modePractice: "Entraînement", modeScore: "Marqueur (vraie table)",
    you: "Vous", computer: "Ordinateur", player1: "Joueur 1", player2: "Joueur 2", level: "Niveau",
    raceTo: "Parties à gagner", start: "Commencer", cancel: "Annuler", breaks: "fait le bris", toAct: "à jouer",
    score: "Score", game: "Partie", lowest: "Boule à jouer", power: "Puissance", elevation: "Élévation de la queue",
    spin: "Effet (cliquez sur la blanche)", aimAid: "Aide à la visée", pushOut: "Coup poussé", shoot: "Jouer",
    replay: "Revoir", slow: "Ralenti", step: "Pas à pas", pause: "Pause", ruling: "Arbitre",
    noRuling: "Le bris : placez la blanche derrière la ligne de tête, visez et jouez.",
    historyTitle: "Déroulé du match", warning: "Avertissement : deuxième faute de suite. Une troisième faute fait perdre la partie (règle 12).",
    choiceTitle: "L'adversaire a joué un coup poussé", choiceText: "Jouer d'ici, ou rendre la main ?",
    choiceShoot: "Je joue", choicePass: "Remettre son tour", inHandKitchen: "Blanche en main derrière la ligne de tête : faites glisser la blanche.",
    inHandAnywhere: "Blanche en main : placez la blanche où vous voulez.", invalidPlace: "La blanche ne peut pas aller là",
    validPlace: "Bonne position", yourTurn: "À vous", waiting: "En attente de", matchOver: "Partie terminée",
    wins: "gagne la partie", newGame: "Nouvelle partie", undo: "Annuler le coup", analysis: "Analyse de l'ordinateur",
    forfeit: "Abandonner la partie", pocketed: "Empochées", keys: "Touches : ← → viser (Maj : fin), ↑ ↓ puissance, Espace jouer. Un clic sur la table bloque ou libère la visée.",
    linksTitle: "Envoyez à chaque joueur son propre lien", seat1Link: "Lien du joueur 1", seat2Link: "Lien du joueur 2",
    spectatorLink: "Spectateurs", spectator: "Vous regardez", connecting: "Connexion…",
    disconnected: "Connexion perdue : reconnexion…", first: "Touchée en premier", offTable: "Sortie de la table", rails: "A touché une bande",
    pocketedBalls: "Empochées", scratch: "blanche", enterShot: "Saisir le coup", nothing: "rien",
    matches: "Matchs", stats: "Statistiques", players: "Joueurs", won: "gagnée", gamesWon: "Parties gagnées",
    ballsPerInning: "Boules par reprise", fouls: "Fautes", breakAndRuns: "Bris et sortie", close: "Fermer",
    continueMatch: "Reprendre le dernier match", practiceHint: "Entraînement : faites glisser n'importe quelle boule.",
    clause: "règle", foul: "Faute", legal: "Légal", breakShot: "Bris", help: "Visez à la souris (ou au doigt, ou aux flèches), réglez la puissance et appuyez sur Jouer.",
    "foul.illegal_break": "bris illégal", "foul.cue_ball_pocketed": "blanche empochée",
    "foul.cue_ball_off_table": "blanche hors de la table", "foul.object_ball_off_table": "boule projetée hors de la table",
    "foul.no_contact": "aucune boule touchée", "foul.wrong_ball_first": "mauvaise boule touchée en premier", "foul.no_rail": "aucune bande",
    "foul.obstruction_moved": "boule faisant obstacle déplacée",
  },
  pl: {
    title: "Dziewiątka", firstBreaker: "Kto rozbija pierwszy", rules: "Przepisy", rulesSeed: "Standardowe (teksty źródłowe)", rulesFr: "Tekst francuski, dosłownie", rulesPl: "Tekst polski, dosłownie", lang: "Język", newMatch: "Nowy mecz", history: "Historia", play: "Graj",
    modeComputer: "Przeciw komputerowi", modeLocal: "Dwóch graczy, jeden ekran",
    modeNetwork: "Dwóch graczy w sieci", modePractice: "Trening", modeScore: "Sędzia-protokolant (prawdziwy stół)",
    you: "Ty", computer: "Komputer", player1: "Gracz 1", player2: "Gracz 2", level: "Poziom",
    raceTo: "Gra do", start: "Start", cancel: "Anuluj", breaks: "rozbija", toAct: "przy stole",
    score: "Wynik", game: "Partia", lowest: "Bila do zagrania", power: "Siła", elevation: "Uniesienie kija",
    spin: "Punkt uderzenia (kliknij bilę)", aimAid: "Pomoc w celowaniu", pushOut: "Wypchnięcie", shoot: "Uderz",
    replay: "Powtórka", slow: "Zwolnione tempo", step: "Krok", pause: "Pauza", ruling: "Sędzia",
    noRuling: "Rozbicie: ustaw białą bilę za linią bazy, wyceluj i uderz.",
    historyTitle: "Przebieg meczu", warning: "Ostrzeżenie: drugi faul z rzędu. Trzeci faul oznacza przegraną partię (punkt 12).",
    choiceTitle: "Przeciwnik wykonał wypchnięcie", choiceText: "Grać z tej pozycji czy oddać uderzenie?",
    choiceShoot: "Gram", choicePass: "Oddaję", inHandKitchen: "Biała bila w ręce za linią bazy: przeciągnij białą bilę.",
    inHandAnywhere: "Biała bila w ręce: ustaw białą bilę w dowolnym miejscu.", invalidPlace: "Tu nie można ustawić białej bili",
    validPlace: "Dobre miejsce", yourTurn: "Twoja kolej", waiting: "Czekamy na", matchOver: "Koniec meczu",
    wins: "wygrywa mecz", newGame: "Nowy mecz", undo: "Cofnij", analysis: "Analiza komputera",
    forfeit: "Oddaj partię", pocketed: "Wbite", keys: "Klawisze: ← → celowanie (Shift: dokładnie), ↑ ↓ siła, Spacja uderzenie. Kliknięcie stołu blokuje lub zwalnia celowanie.",
    linksTitle: "Wyślij każdemu graczowi jego własny link", seat1Link: "Link gracza 1", seat2Link: "Link gracza 2",
    spectatorLink: "Widzowie", spectator: "Oglądasz", connecting: "Łączenie…",
    disconnected: "Utracono połączenie: ponowne łączenie…", first: "Trafiona pierwsza", offTable: "Poza stołem", rails: "Dotknęła bandy",
    pocketedBalls: "Wbite", scratch: "biała", enterShot: "Wpisz uderzenie", nothing: "nic",
    matches: "Mecze", stats: "Statystyki", players: "Gracze", won: "wygrał", gamesWon: "Wygrane partie",
    ballsPerInning: "Bile na podejście", fouls: "Faule", breakAndRuns: "Rozbicie i zejście", close: "Zamknij",
    continueMatch: "Kontynuuj ostatni mecz", practiceHint: "Trening: przeciągnij dowolną bilę.",
    clause: "punkt", foul: "Faul", legal: "Prawidłowe", breakShot: "Rozbicie", help: "Celuj myszą (palcem lub strzałkami), ustaw siłę i naciśnij Uderz.",
    "foul.illegal_break": "nieprawidłowe rozbicie", "foul.cue_ball_pocketed": "wbita biała bila",
    "foul.cue_ball_off_table": "biała bila poza stołem", "foul.object_ball_off_table": "bila poza stołem",
    "foul.no_contact": "nie trafiono żadnej bili", "foul.wrong_ball_first": "najpierw trafiona niewłaściwa bila", "foul.no_rail": "brak bandy",
    "foul.obstruction_moved": "poruszona bila przeszkadzająca",
  },
};

let current = "en";

export function setLang(lang) {
  if (!LANGS.includes(lang)) return;
  current = lang;
  document.documentElement.lang = lang;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
}

export function lang() { return current; }

export function t(key) {
  return D[current][key] ?? D.en[key] ?? key;
}

export function keys(lang) { return Object.keys(D[lang]); }
