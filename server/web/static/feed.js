// One table's model, kept in seq order from snapshots and table_updates (docs/protocol.md section 3).
//
// The model IS a snapshot: applyUpdate puts each update's `view` (whole keys), then its `patch` (leaf
// operations), then seq, server_time and choices, exactly as server/viewpatch.py's apply_update; both run
// the cases of tests/vectors/viewpatch.json. An update that comes before the one it follows is held a
// moment; a gap that does not fill is closed with a snapshot. A patch that does not fit the model
// (PatchMismatchError) drops the model and asks a snapshot.

const GAP_HOLD_MS = 400;

/** An update that does not fit the model: it is not the model the server patched. */
export class PatchMismatchError extends Error {}

const isDict = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const isIndex = (step, list) => Number.isInteger(step) && step >= 0 && step < list.length;

function child(target, step, path) {
  let next;
  if (isDict(target) && typeof step === "string") next = Object.hasOwn(target, step) ? target[step] : undefined;
  else if (Array.isArray(target) && isIndex(step, target)) next = target[step];
  if (next === null || typeof next !== "object") throw new PatchMismatchError(`patch path ${JSON.stringify(path)}`);
  return next;
}

function setLeaf(target, path, value) {
  const last = path[path.length - 1];
  if (isDict(target) && typeof last === "string") {
    if (value.length) target[last] = value[0];
    else delete target[last];
  } else if (Array.isArray(target) && isIndex(last, target) && value.length) {
    target[last] = value[0];
  } else {
    throw new PatchMismatchError(`patch path ${JSON.stringify(path)}`);
  }
}

/** Apply patch operations to a copy of the model; throws PatchMismatchError when an operation does not fit it. */
export function applyPatch(model, ops) {
  const out = structuredClone(model);
  for (const op of ops) {
    if (!Array.isArray(op) || op.length < 1 || op.length > 2 || !Array.isArray(op[0]) || !op[0].length) {
      throw new PatchMismatchError(`not a patch operation: ${JSON.stringify(op)}`);
    }
    const path = op[0];
    let target = out;
    for (const step of path.slice(0, -1)) target = child(target, step, path);
    setLeaf(target, path, op.slice(1));
  }
  return out;
}

/** The model after one update, as a new object (the model is not changed); throws PatchMismatchError. */
export function applyUpdate(model, update) {
  const view = update.view ?? null;
  const patch = update.patch ?? null;
  if (view !== null && !isDict(view)) throw new PatchMismatchError("an update's view is not a dict");
  if (patch !== null && !Array.isArray(patch)) throw new PatchMismatchError("an update's patch is not a list");
  const out = applyPatch({ ...model, ...(view || {}) }, patch || []);
  for (const key of ["seq", "server_time", "choices"]) if (Object.hasOwn(update, key)) out[key] = update[key];
  return out;
}

export class TableFeed {
  /** fetchSnapshot(): a promise of a fresh snapshot; onUpdate(model, update|null): after each change. */
  constructor(table, fetchSnapshot, onUpdate) {
    this.table = table;
    this.fetchSnapshot = fetchSnapshot;
    this.onUpdate = onUpdate;
    this.model = null;
    this.held = [];
    this.gapTimer = null;
    this.dropped = false; // a patch did not fit: the model is gone until a snapshot comes
    /** The socket's table_update listener: an update of this table is offered, another table's is not ours. */
    this.listener = (update) => { if (update.table === this.table) this.offer(update); };
  }

  takeSnapshot(snapshot) {
    if (this.model && snapshot.seq < this.model.seq) return;
    this.model = snapshot;
    this.dropped = false;
    this.onUpdate(this.model, null);
    this.drain();
  }

  offer(update) {
    if (!this.model) { this.held.push(update); return; }
    if (update.seq <= this.model.seq) return; // already in the model
    if (update.from_seq > this.model.seq + 1) {
      this.held.push(update);
      if (!this.gapTimer) this.gapTimer = setTimeout(() => this.closeGap(), GAP_HOLD_MS);
      return;
    }
    try {
      this.model = applyUpdate(this.model, update);
    } catch (err) {
      if (!(err instanceof PatchMismatchError)) throw err;
      this.model = null; // not the model the server patched: drop it, hold the update, ask a snapshot
      this.dropped = true;
      this.held.push(update);
      this.closeGap();
      return;
    }
    this.onUpdate(this.model, update);
    this.drain();
  }

  drain() {
    const held = this.held.sort((a, b) => a.from_seq - b.from_seq);
    this.held = [];
    for (const update of held) this.offer(update);
    if (!this.held.length && this.gapTimer) { clearTimeout(this.gapTimer); this.gapTimer = null; }
  }

  async closeGap() {
    this.gapTimer = null;
    try {
      this.takeSnapshot(await this.fetchSnapshot());
    } catch (err) {
      console.warn("snapshot failed", err);
      // a dropped model has nothing else to bring a snapshot: try again
      if (this.dropped && !this.gapTimer) this.gapTimer = setTimeout(() => this.closeGap(), GAP_HOLD_MS);
    }
  }
}
