// Every element of the page inside the viewport's width, and every element of a seat inside its seat box.
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
    return out;
}
