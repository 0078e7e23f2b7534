// The page's frame on any screen: the table redrawn to fill #table-wrap whenever the layout
// resizes it, the compact header's menu, and the referee's long text folded on small screens.
import { $, layoutCanvas } from "./state.js";

// ------------------------------------------------------------------ the table's size

new ResizeObserver(() => layoutCanvas()).observe($("table-wrap"));

// ------------------------------------------------------------------ the compact header's menu

function setMenu(open) {
  document.querySelector("header").classList.toggle("menu-open", open);
  $("btn-menu").setAttribute("aria-expanded", String(open));
}
$("btn-menu").addEventListener("click", (ev) => {
  ev.stopPropagation();
  setMenu($("btn-menu").getAttribute("aria-expanded") !== "true");
});
// A choice in the menu, or a click anywhere else, closes it (the language select stays open
// while it is being used).
$("menu").addEventListener("click", (ev) => { if (ev.target.closest("button")) setMenu(false); });
$("lang").addEventListener("change", () => setMenu(false));
document.addEventListener("click", (ev) => { if (!ev.target.closest("#menu")) setMenu(false); });

// ------------------------------------------------------------------ the referee's text

// On small screens the ruling and the hint show their first lines; a tap unfolds or folds the rest.
$("ruling").addEventListener("click", () => $("referee").classList.toggle("unfolded"));
$("hint").addEventListener("click", () => $("table-notes").classList.toggle("unfolded"));
