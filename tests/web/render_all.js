// Every event, refusal and result kind the server has (``kinds()`` in test_table_page.py), as the page says it.
async (k) => {
    const r = await import("/static/results.js");
    const w = await import("/static/words.js");
    const d = await import("/static/drill.js");
    const model = {seats: [{seat: 2, name: "bob"}, {seat: 3, name: "cy"}], hand: {hand_id: 7}};
    const out = [];
    const base = {seat: 2, name: "bob", spot: 1, box: 1, stack: 100, amount: 10, ante: 5, n: 3, step: "first_card",
                  changed: {min_ante: 10, fee_mode: "all"}, number: 4, hand_id: 7, commitment: "ab".repeat(32),
                  cards: ["Ah", "Kd"], present: true, cashed_out: 90};
    for (const type of k.events) {
        for (const reason of [undefined, "clock", "floor", "removed", "sat_out_too_long", ...k.void, ...k.dead, ...k.not_dealt]) {
            const line = r.describe({...base, type, reason}, model);
            if (line !== null) out.push([`event ${type} ${reason}`, line]);
        }
    }
    const silent = k.events.filter((type) => r.describe({...base, type}, model) === null);
    out.push(["silent", silent.join(" ") || "none"]);
    for (const [code, message] of Object.entries(k.errors)) out.push([`refusal ${code}`, w.refusal({code, message})]);
    out.push(["refusal without a message", w.refusal({code: "bet/others_waiting"})]);
    for (const reason of k.void) {
        const hand = {hand_id: 31, number: 14, status: "void", reason};
        out.push([`void ${reason}`, r.handTitle(hand) + " " + r.resultLines(hand, "hcf", 2).map((l) => l[0]).join(" ")]);
    }
    for (const reason of k.not_dealt) {
        const hand = {hand_id: 31, number: null, status: "not_dealt", reason};
        out.push([`not dealt ${reason}`, r.handTitle(hand) + " " + r.resultLines(hand, "hcf", 2).map((l) => l[0]).join(" ")]);
    }
    for (const reason of [...k.dead, "funds"]) {
        out.push([`dead ${reason}`, r.deadText({dead: true, dead_reason: reason, bank: 60, owed: 120})]);
    }
    for (const cls of k.classes) {
        out.push([`class ${cls}`, r.handName("caribbean", {class: cls}, ["Ah", "Ad", "Kc", "Kd", "Ks"])]);
        const settled = {status: "settled", number: 2, names: {"2": "bob"}, bets: [{spot: 1, seat: 2}],
            dealer_cards: ["2c", "3d", "4h", "5s", "9c"], shown: {"1": ["Ah", "Ad", "Kc", "Kd", "Ks"]},
            settlement: {dealer: {qualifies: true, class: cls}, spots: [{spot: 1, ante: 5, bet: 10, jackpot: 1,
                jackpot_award: 0, net: 14, dead: false, folded: false, class: cls}]}};
        out.push([`result ${cls}`, r.resultLines(settled, "caribbean", 2).map((l) => l[0]).join(" ")]);
    }
    const hcf = {status: "settled", number: 5, dealer: 3, names: {"2": "bob", "3": "cy"},
        bets: {"2": {ante: 5, straight_flush_bonus: 100, flush_bonus: 0, raise: 10}},
        dealer_cards: ["2c", "4d", "6s", "8c", "Td", "Qs", "3c"], shown: {"2": ["Ah", "Kh", "Qh", "Jh", "Th", "9h", "8h"]},
        settlement: {dealer: {qualifies: false, net: -10, fee: 0}, house: 1, seats: [
            {seat: 2, dead: false, folded: false, ante: 5, raise: 0, straight_flush_bonus: 100, flush_bonus: 0, fee: -1, net: 104}]}};
    out.push(["pair", r.handName("caribbean", {class: "pair"}, ["Jh", "Jc", "2d", "5s", "9c"])]);
    out.push(["hcf result", r.resultLines(hcf, "hcf", 2).map((l) => l[0]).join(" ")]);
    const folded = {...hcf, settlement: {...hcf.settlement, seats: [{...hcf.settlement.seats[0], folded: true, ante: -5, net: -6}]}};
    out.push(["clock fold", r.resultLines(folded, "hcf", 2, new Set([2])).map((l) => l[0]).join(" ")]);
    out.push(["drill answer", d.answerWords({qualifies: false, fees: {"1": 1}, seat: null, first_card: 3})]);
    return out;
}
