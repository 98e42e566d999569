// Every element of the page inside the viewport's width, every element of a seat inside its seat box, and no
// seat's name plate, bets, spots or boxes lying over another seat's (issue 28: a phone's spot 1 sat under seat 2).
() => {
    const out = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width) out.push(`the page is ${document.documentElement.scrollWidth} px wide`);
    for (const el of document.querySelectorAll("main *")) {
        const r = el.getBoundingClientRect();
        if (!r.width || !r.height || getComputedStyle(el).visibility === "hidden") continue;
        const what = `${el.tagName}.${el.className} "${(el.textContent || "").trim().slice(0, 30)}"`;
        const style = getComputedStyle(el);
        if (style.overflowX === "visible" && el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0 && style.display !== "inline") {
            out.push(`${what}: its text runs out of it`);
        }
        if (r.left < -0.5 || r.right > width + 0.5) out.push(`${what} lies outside the viewport (${r.left}..${r.right})`);
        const seat = el.parentElement?.closest(".seat");
        if (seat) {
            const s = seat.getBoundingClientRect();
            if (r.left < s.left - 0.5 || r.right > s.right + 0.5 || r.top < s.top - 0.5 || r.bottom > s.bottom + 0.5) {
                out.push(`${what} lies outside its seat box`);
            }
        }
    }
    // What a seat draws on the felt: its plate and each bet, spot or box in front of it.
    const parts = [...document.querySelectorAll(".felt .seat")].flatMap((seat) =>
        [...seat.querySelectorAll(":scope > .plate, :scope > .front > *")].map((el) => [seat.dataset.seat, el]));
    const cross = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    const name = (el) => `${el.className} "${(el.textContent || "").trim().slice(0, 20)}"`;
    for (const [i, [seatA, a]] of parts.entries()) {
        for (const [seatB, b] of parts.slice(i + 1)) {
            if (seatA !== seatB && cross(a.getBoundingClientRect(), b.getBoundingClientRect())) {
                out.push(`seat ${seatA}'s ${name(a)} lies over seat ${seatB}'s ${name(b)}`);
            }
        }
    }
    return out;
}
