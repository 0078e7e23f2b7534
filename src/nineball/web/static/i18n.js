// The page's own strings in English, French and Polish, from the server's gettext catalogs (the
// "web" domain: src/nineball/web/locale/<lang>/LC_MESSAGES/web.po, served as /i18n/<lang>.json;
// see nineball/web/i18n.py). The three languages are loaded before any module that imports this
// one runs, so t() and setLang() stay synchronous. Rulings come from the server already
// explained in all three languages (the referee's own catalogs).
export const LANGS = ["en", "fr", "pl"];

const D = {};

// Fetch the strings of `lang` (one of LANGS) and keep them; resolves to them.
export async function loadLanguage(lang) {
  const reply = await fetch(`/i18n/${lang}.json`);
  if (!reply.ok) throw new Error(`the ${lang} strings of the page: HTTP ${reply.status}`);
  D[lang] = await reply.json();
  return D[lang];
}

// A language that fails to load falls back to English, then to the keys themselves.
for (const result of await Promise.allSettled(LANGS.map(loadLanguage))) {
  if (result.status === "rejected") console.error(result.reason);
}

let current = "en";

export function setLang(lang) {
  if (!LANGS.includes(lang)) return;
  current = lang;
  document.documentElement.lang = lang;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  document.dispatchEvent(new Event("langchange")); // for the words the modules build themselves
}

export function lang() { return current; }

export function t(key) {
  return D[current]?.[key] ?? D.en?.[key] ?? key;
}

// The string of `key` with each {name} in it replaced by values[name] (a name, a number...).
export function tf(key, values) {
  return t(key).replace(/\{(\w+)\}/g, (all, name) => (name in values ? String(values[name]) : all));
}

export function keys(lang) { return Object.keys(D[lang] ?? {}); }
