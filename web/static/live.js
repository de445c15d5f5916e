// Keeps a match page current: the server tells each new version of the match (server-sent events), and
// the page fetches itself again through its own address and puts the new <main> in place of the old.
// Other scripts hear of each change by the "live:updated" event on <main>.
"use strict";
(() => {
  const main = document.querySelector("main[data-events]");
  if (!main || !window.EventSource || !window.fetch) return;
  let shown = Number(main.dataset.version);
  let wanted = shown;
  let fetching = false;
  const source = new EventSource(main.dataset.events);

  // A stream the server refused or ended for good (a browser retries one that was merely cut): the
  // page says it no longer changes by itself.
  function stopped() {
    source.close();
    const note = main.querySelector(".live-off");
    if (note) note.hidden = false;
  }
  source.onerror = () => {
    if (source.readyState === EventSource.CLOSED) stopped();
  };

  // A choice of several with boxes ticked is left alone until it is sent: the new page would untick them.
  const picking = () => main.querySelector("form.choice input:checked") !== null;

  // What the reader opened on the page (the board at full size, folded groups of moves) stays open.
  function keepOpen(fresh) {
    const zoom = main.querySelector("#board-zoom");
    const freshZoom = fresh.querySelector("#board-zoom");
    if (zoom && freshZoom) freshZoom.checked = zoom.checked;
    const open = new Set(
      [...main.querySelectorAll("details[open] > summary")].map((summary) => summary.textContent),
    );
    for (const summary of fresh.querySelectorAll("details > summary")) {
      if (open.has(summary.textContent)) summary.parentElement.open = true;
    }
  }

  async function refresh() {
    if (fetching) return;
    if (picking()) {
      setTimeout(refresh, 2000);
      return;
    }
    fetching = true;
    try {
      while (wanted > shown) {
        const asked = wanted;
        const answer = await fetch(location.href, { credentials: "same-origin", cache: "no-store" });
        if (!answer.ok) {
          stopped();
          return;
        }
        const page = new DOMParser().parseFromString(await answer.text(), "text/html");
        const fresh = page.querySelector("main");
        if (!fresh) return;
        keepOpen(fresh);
        main.replaceChildren(...fresh.childNodes);
        main.dataset.version = fresh.dataset.version;
        document.title = page.title;
        shown = Math.max(asked, Number(fresh.dataset.version));
        main.dispatchEvent(new CustomEvent("live:updated", { detail: { version: shown } }));
        if (!fresh.dataset.events) {
          source.close();
          return;
        }
      }
    } catch (error) {
      // A failed fetch waits for the next version, or the reconnection that tells the current one.
    } finally {
      fetching = false;
    }
  }

  // Each event: the version, and the spread (ms) within which the pages following it fetch themselves,
  // each at a moment of its own, so that a crowd does not ask the server all at once.
  source.onmessage = (message) => {
    const [version, spread] = message.data.split(" ").map(Number);
    wanted = Math.max(wanted, version);
    if (wanted > shown) setTimeout(refresh, Math.random() * (spread || 0));
  };
})();
