// The page's router: one index.html for every route (docs/web.md). The language's words are loaded first
// (docs/i18n.md), then the pages: their modules name their words as they load.

import { loadLanguage } from "./i18n.js";

// An invite's token leaves the URL at once, before anything is loaded (docs/web-server.md): kept here for the join page.
const invite = location.pathname === "/join" ? location.hash.slice(1) : null;
if (invite !== null) history.replaceState(null, "", "/join");

await loadLanguage();
const { lobby, join } = await import("./pages.js");
const { TablePage } = await import("./table.js");
const { hostConsole } = await import("./host.js");
const { historyPage } = await import("./history.js");
const { drillPage } = await import("./drill.js");
const { traineesPage, traineePage } = await import("./trainer.js");
const { certificatePage } = await import("./certificate.js");

function route() {
  const root = document.getElementById("app");
  const path = location.pathname;
  const [, page, name, number] = path.split("/").map(decodeURIComponent);
  if (page === "join") join(root, route, invite ?? "");
  else if (page === "table" && name) window.tablePage = new TablePage(root, name);
  else if (page === "watch" && name) window.tablePage = new TablePage(root, name, { spectator: true });
  else if (page === "host") hostConsole(root);
  else if (page === "history" && name) historyPage(root, name, /^[1-9]\d{0,8}$/.test(number || "") ? Number(number) : null);
  else if (page === "drill" && name) window.tablePage = drillPage(root, name);
  else if (page === "trainees" && name) traineePage(root, name);
  else if (page === "trainees") traineesPage(root);
  else if (page === "certificate" && name) certificatePage(root, name, number || ""); // the server says what a bad number is
  else lobby(root);
}

route();
