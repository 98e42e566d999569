// The page's router: one index.html for every route (docs/web.md).

import { lobby, join } from "./pages.js";
import { TablePage } from "./table.js";
import { hostConsole } from "./host.js";
import { historyPage } from "./history.js";
import { drillPage } from "./drill.js";
import { traineesPage, traineePage } from "./trainer.js";
import { certificatePage } from "./certificate.js";

function route() {
  const root = document.getElementById("app");
  const path = location.pathname;
  const [, page, name, number] = path.split("/").map(decodeURIComponent);
  if (page === "join") join(root, route);
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
