// The drill trainee's view: a drill table watched and played like any other, with the drill's steps.
import { TablePage } from "./table.js";

export function drillPage(root, name) {
  return new TablePage(root, name);
}
