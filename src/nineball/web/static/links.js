// The links of a network match: each with a copy button and a QR code, shown again on demand
// (the Links button); and the page a bad or expired link opens on.
import { t, tf } from "./i18n.js";
import { $, S } from "./state.js";

// ------------------------------------------------------------------ the links dialog

const ROWS = [["link0", "0", "seat1Link"], ["link1", "1", "seat2Link"], ["link-watch", null, "spectatorLink"]];
const known = (match) => { try { return JSON.parse(localStorage.getItem(`nineball.links.${match}`)) ?? {}; } catch { return {}; } };

// A link to a match: the token in the fragment, which no browser sends to the server.
function linkFor(base, match, token) { return `${base}/#m=${match}${token ? `&t=${token}` : ""}`; }

// Keep the tokens of a new network match (its creator may show its links again later).
function rememberLinks(match, tokens) {
  localStorage.setItem(`nineball.links.${match}`, JSON.stringify({ 0: tokens["0"], 1: tokens["1"] }));
}

// Show the links this page knows for the match: both seats' for the page that created it, its
// own seat's otherwise, and the spectators' always; `base` is the server's (GET /api/base).
async function showLinks(match, base) {
  const tokens = known(match);
  if (S.match === match && S.token && S.seats.length === 1) tokens[String(S.seats[0])] ??= S.token;
  $("links-copied").textContent = "";
  for (const [id, seat, label] of ROWS) {
    const row = $(id).closest(".link");
    const token = seat === null ? null : tokens[seat];
    row.hidden = seat !== null && !token;
    if (row.hidden) continue;
    $(id).value = linkFor(base, match, token);
    const img = row.querySelector("img.qr");
    img.alt = tf("qrOf", { what: t(label) });
    img.removeAttribute("src");
    qrInto(img, $(id).value);
  }
  if (!$("links").open) $("links").showModal();
}

// The QR code is the server's drawing (segno): the link goes in the body, never in a logged URL.
async function qrInto(img, url) {
  const res = await fetch("/api/qr.svg", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ url }) });
  if (!res.ok) { img.alt = (await res.json()).error; return; }
  if (img.dataset.blob) URL.revokeObjectURL(img.dataset.blob);
  img.dataset.blob = URL.createObjectURL(await res.blob());
  img.src = img.dataset.blob;
}

// Copy with the clipboard where the page may (https, localhost); else select the text for the
// person to copy (a page reached over plain http on a network has no clipboard API).
async function copy(input) {
  const said = $("links-copied");
  try {
    await navigator.clipboard.writeText(input.value);
    said.textContent = t("copied");
  } catch {
    input.focus(); input.select();
    let done = false;
    try { done = document.execCommand("copy"); } catch { done = false; }
    said.textContent = done ? t("copied") : t("copyByHand");
  }
}
for (const button of document.querySelectorAll("#links button.copy")) {
  button.addEventListener("click", () => copy(button.closest(".link").querySelector("input")));
}

$("btn-links").addEventListener("click", async () => {
  const res = await fetch("/api/base");
  const data = await res.json();
  if (res.ok && S.match) showLinks(S.match, data.base);
});

// The Links button: in a network match only.
function updateLinksButton() { $("btn-links").hidden = !(S.mode === "network" && S.match); }

// ------------------------------------------------------------------ a bad or expired link

// The server refused to join (an unknown match or a bad token): say so, offer a new match.
document.addEventListener("badlink", (ev) => {
  $("bad-link-why").textContent = ev.detail ?? "";
  try {
    const last = JSON.parse(localStorage.getItem("nineball.last"));
    if (last && last.match === S.match) localStorage.removeItem("nineball.last"); // nothing to continue
  } catch { /* an unreadable entry: left alone */ }
  $("btn-links").hidden = true;
  if (!$("bad-link").open) $("bad-link").showModal();
});
$("bad-link-new").addEventListener("click", () => { $("bad-link").close(); history.replaceState(null, "", location.pathname + location.search); $("btn-new").click(); });

export { linkFor, rememberLinks, showLinks, updateLinksButton };
