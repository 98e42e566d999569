// One table's model, kept in seq order from snapshots and table_updates (docs/protocol.md section 3).
//
// The model IS a snapshot: apply each update's `view` (whole keys), then its `patch` (leaf operations,
// as server/viewpatch.py), then seq, server_time and choices. An update that comes before the one it
// follows is held a moment; a gap that does not fill is closed with a snapshot.

const GAP_HOLD_MS = 400;

/** Apply patch operations to a copy of the model; throws when a path does not lead through it. */
export function applyPatch(model, ops) {
  const out = structuredClone(model);
  for (const op of ops) {
    const path = op[0];
    let target = out;
    for (const step of path.slice(0, -1)) {
      target = target?.[step];
      if (target === null || typeof target !== "object") throw new Error(`patch path ${JSON.stringify(path)}`);
    }
    const last = path[path.length - 1];
    if (op.length === 2) target[last] = op[1];
    else delete target[last];
  }
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
  }

  takeSnapshot(snapshot) {
    if (this.model && snapshot.seq < this.model.seq) return;
    this.model = snapshot;
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
      let model = { ...this.model, ...update.view };
      model = applyPatch(model, update.patch || []);
      model.seq = update.seq;
      model.server_time = update.server_time;
      model.choices = update.choices;
      this.model = model;
    } catch (err) {
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
    }
  }
}
