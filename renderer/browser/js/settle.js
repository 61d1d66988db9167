// Page-side helpers of the settle loop, one function expression taking {action, ...}.
// Every action is bounded and never throws into the page.
(options) => {
  const state = window.__readermode || { mutations: 0, lastMutation: 0, observed: new Set() };

  // The state of this document and of every same-origin frame in it (the snapshot reads
  // those frames too; each has its own observer, installed by the same init script).
  const states = () => {
    const found = [state];
    const visit = (win, depth) => {
      if (depth > 5) return;
      for (let i = 0; i < win.frames.length; i++) {
        try {
          const child = win.frames[i];
          if (child.__readermode) found.push(child.__readermode);
          visit(child, depth + 1);
        } catch (e) {
          /* a cross-origin frame: the snapshot cannot read it either */
        }
      }
    };
    visit(window, 0);
    return found;
  };

  // Firefox's test for a page worth a Reader View (isProbablyReaderable, without its
  // visibility check): paragraphs of more than 140 characters, sqrt(length - 140) summed past 20.
  const hasArticle = () => {
    let score = 0, seen = 0;
    for (const node of document.querySelectorAll("p, pre, article")) {
      if (++seen > 3000) break;
      const length = node.textContent.trim().length;
      if (length < 140) continue;
      score += Math.sqrt(length - 140);
      if (score > 20) return true;
    }
    return false;
  };

  // Targets of observers whose callbacks run in a rendering frame (intersection, resize), in
  // every same-origin document (one our init script never reached counts as one).
  const frameWatchers = (all) => {
    let count = 0;
    for (const s of all) count += s.observed && s.resizeObserved !== undefined ? s.observed.size + s.resizeObserved : 1;
    return count;
  };

  // ``idle``: nothing scheduled anywhere and every document loaded, evidence that the page has
  // nothing left to do once its network is quiet too (the renderer judges that part).
  const quiet = () => {
    const all = states();
    let mutations = 0, since = 1e9, timers = 0, longTimers = 0, scheduled = 0, oneShot = 0, anything = 0;
    let watchers = 0;
    for (const s of all) {
      // (a document our init script never reached counts as watching)
      watchers += (s.scrollListeners === undefined ? 1 : s.scrollListeners) + (s.observed ? s.observed.size : 0);
      mutations += s.mutations || 0;
      // each frame's own clock: performance.now() has a different origin in every document
      if (s.sinceMutation) since = Math.min(since, s.sinceMutation());
      timers += s.pendingTimers ? s.pendingTimers() : 0;
      longTimers += s.longTimers ? s.longTimers() : 0;
      oneShot += s.oneShot ? s.oneShot() : 1;
      anything += s.anything ? s.anything() : 1;
    }
    // asked only when it matters: long timers hold only a page with no article yet
    const article = longTimers > 0 ? hasArticle() : null;
    for (const s of all) scheduled += s.scheduled ? s.scheduled(article) : 1;
    return {
      mutations,
      sinceMutation: since,
      readyState: document.readyState,
      timers,
      longTimers,
      oneShot,
      hasArticle: article,
      idle: scheduled === 0 && document.readyState === "complete",
      // no DOM change since two rendering frames passed on this idle page (``settled``)
      framesQuiet: state.quietAt === mutations,
      // not even a poller or a heartbeat scheduled: nothing could be watching the scroll
      still: anything === 0 && document.readyState === "complete",
      frameWatchers: frameWatchers(all),
      // listeners and observed targets that a scroll could wake, and scroll handler properties
      scrollWatchers:
        watchers + (window.onscroll || document.onscroll || (document.body && document.body.onscroll) ? 1 : 0),
    };
  };

  // Two rendering frames (IntersectionObserver callbacks run in them), at most ``ms`` (100).
  const frames = (ms = 100) =>
    new Promise((done) => {
      const fallback = setTimeout(done, ms);
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          clearTimeout(fallback);
          done();
        })
      );
    });

  // On a page with nothing scheduled: two rendering frames (IntersectionObserver and
  // ResizeObserver callbacks run in them, and what a finished task left to the event loop),
  // then the state again. Still idle with no DOM change in between is evidence that the page is
  // done, without waiting out a wall-clock window after its last change; it holds
  // (``framesQuiet``) until the DOM changes again. A page that observes nothing a frame
  // reports on has nothing a frame could start (its timers, frames, idle callbacks, messages
  // and animations are in ``idle``): it is quiet without them, which spares the first frame's
  // paint and the wait for two frames (30 to 45 ms of a capture of a page complete at load).
  const settled = async () => {
    const before = quiet();
    if (!before.idle || before.framesQuiet || before.sinceMutation >= options.idleMs) return before;
    if (before.frameWatchers === 0) {
      state.quietAt = before.mutations;
      return { ...before, framesQuiet: true };
    }
    // (the frames themselves are the evidence: a busy machine stretches them, and a fallback
    // that fired first would leave them scheduled, the page busy, the wait to its window)
    await frames(1000);
    const after = quiet();
    if (after.idle && after.mutations === before.mutations) state.quietAt = after.mutations;
    return { ...after, framesQuiet: state.quietAt === after.mutations };
  };

  // One rendering frame, or ``ms`` if none comes (a throttled frame has none).
  const frame = (ms) =>
    new Promise((done) => {
      const fallback = setTimeout(done, ms);
      requestAnimationFrame(() => {
        clearTimeout(fallback);
        done();
      });
    });

  // What asks for content-visibility:auto: the elements that style sheets and style attributes
  // give it, and whether any sheet asks at all (one that cannot be read, cross-origin, counts
  // as asking).
  const autoVisibility = () => {
    // (the property asked by name: serialising every rule's cssText took up to 29 ms on a
    // page with 10,000 rules)
    const isAuto = (style) => style.getPropertyValue("content-visibility") === "auto";
    const selectors = [];
    let asks = false;
    const visit = (rules, depth) => {
      for (const rule of rules) {
        if (rule.style && isAuto(rule.style)) {
          asks = true;
          if (rule.selectorText) selectors.push(rule.selectorText);
        }
        if (rule.cssRules && depth < 4) visit(rule.cssRules, depth + 1);
      }
    };
    for (const sheet of document.styleSheets) {
      try {
        visit(sheet.cssRules, 0);
      } catch (e) {
        asks = true;
      }
    }
    const targets = new Set();
    for (const el of document.querySelectorAll('[style*="content-visibility"]')) {
      if (isAuto(el.style)) targets.add(el);
    }
    for (const selector of selectors) {
      try {
        for (const el of document.querySelectorAll(selector)) targets.add(el);
      } catch (e) {} // a nested rule's relative selector
    }
    return { asks: asks || targets.size > 0, targets: Array.from(targets) };
  };

  // Lift what keeps content from loading or rendering until it is near the viewport. Pages that
  // fill a content-visibility:auto section only when its contentvisibilityautostatechange
  // event says it is rendered (and may empty it again when it is skipped) get that event for
  // every section first: selected content is relevant to the user, so selecting the whole
  // body unskips them all. The wait is for the events themselves (observe.js records them),
  // not for a number of frames, which a busy machine stretches past any fallback timer; then
  // content-visibility is turned off for good.
  const AUTO_VISIBILITY_WAIT_MS = 3000;
  const eager = async () => {
    let changed = 0;
    for (const el of document.querySelectorAll("img[loading=lazy], iframe[loading=lazy]")) {
      el.loading = "eager";
      changed++;
    }
    if (state.forgetOwnChanges) state.forgetOwnChanges();
    const selection = window.getSelection && window.getSelection();
    const auto = document.body ? autoVisibility() : { asks: false, targets: [] };
    // A style sheet that cannot be read (cross-origin, or refused offline) makes nearly every
    // page "ask": the events tell whether any section skips its contents now. One frame first,
    // for the events of sections rendered since the last one, unless frames already passed
    // with the DOM as it is (two, ``settled``, or the few of ``idleMs``): their events have come.
    if (selection && auto.asks && state.autoSkipping) {
      const now = quiet();
      if (!now.framesQuiet && now.sinceMutation < options.idleMs) await frame(100);
      if (!state.autoSkipping()) auto.asks = false;
    }
    if (selection && auto.asks) {
      try {
        selection.selectAllChildren(document.body);
        const started = performance.now();
        const boxed = auto.targets.filter((el) => el.getClientRects().length > 0);
        const waiting = () => boxed.some((el) => state.autoSkipped && state.autoSkipped(el) !== false);
        await frames();
        while (waiting() && performance.now() - started < AUTO_VISIBILITY_WAIT_MS) await frame(200);
        await frames();
      } catch (e) {}
    }
    const style = document.createElement("style");
    style.textContent = "*{content-visibility:visible !important}";
    (document.head || document.documentElement).appendChild(style);
    if (state.forgetOwnChanges) state.forgetOwnChanges();
    try {
      if (selection) selection.removeAllRanges();
    } catch (e) {}
    return { changed };
  };

  // Elements that scroll on their own and are big enough to hold the main content. Subtrees
  // without a box (display:none) are skipped whole and the scan stops after SCAN_LIMIT
  // elements: on a page of a million elements a full scan took longer than the budget.
  const SCAN_LIMIT = 20000;
  const scanScrollers = () => {
    const found = [];
    if (!document.body) return found;
    const minArea = window.innerWidth * window.innerHeight * 0.2;
    const boxless = (el) =>
      typeof el.checkVisibility === "function" && !el.checkVisibility() && getComputedStyle(el).display === "none";
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT, {
      acceptNode: (el) => (boxless(el) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
    });
    let scanned = 0;
    for (let el = walker.nextNode(); el && scanned < SCAN_LIMIT; el = walker.nextNode()) {
      scanned++;
      if (found.length >= 5) break;
      if (el.scrollHeight <= el.clientHeight + 40) continue;
      const style = getComputedStyle(el);
      if (!/(auto|scroll|overlay)/.test(style.overflowY)) continue;
      if (el.clientWidth * el.clientHeight < minArea) continue;
      found.push(el);
    }
    return found;
  };
  // The scan's result, kept while the DOM and the viewport are unchanged: every scroll step
  // and ``top`` ask for it, and a scan took 2 to 3 ms on a news page (scrolling is no
  // mutation, so a page that does not react to its steps is scanned once).
  const scrollers = () => {
    const key = `${state.mutations} ${window.innerWidth}x${window.innerHeight}`;
    if (state.scrollersKey !== key || !state.scrollersFound) {
      state.scrollersFound = scanScrollers();
      state.scrollersKey = key;
    }
    return state.scrollersFound.filter((el) => el.isConnected);
  };

  // One scroll step (``scale`` times 0.8 of a screen) of the window and of each inner
  // scroller, then two frames, or one on a page that observes nothing a frame reports on
  // (scroll events are dispatched in the frame before its animation-frame callbacks, so the
  // page's scroll listeners have run by then); reports whether any moved, and the page's
  // state after the frames.
  const step = async () => {
    state.step = (state.step || 0) + 1;
    const targets = [document.scrollingElement || document.documentElement, ...scrollers()];
    const scale = Math.max(1, Number(options.scale) || 1);
    let moved = false;
    for (const el of targets) {
      const before = el.scrollTop;
      const page = el === document.scrollingElement ? window.innerHeight : el.clientHeight;
      el.scrollTop = before + Math.max(200, page * 0.8) * scale;
      if (el.scrollTop > before) moved = true;
    }
    if (moved) await (frameWatchers(states()) ? frames() : frame(100));
    return {
      moved,
      height: (document.scrollingElement || document.documentElement).scrollHeight,
      ...quiet(),
    };
  };

  // Scroll the targets IntersectionObservers watch into view, so loaders that never see a
  // scroll event (inner containers, sentinels) still fire.
  const reveal = () => {
    let revealed = 0;
    for (const ref of Array.from(state.observed)) {
      const el = ref.deref();
      if (!el || !el.isConnected) {
        state.observed.delete(ref);
        continue;
      }
      try {
        el.scrollIntoView({ block: "center" });
        revealed++;
      } catch (e) {}
      if (revealed >= options.maxReveal) break;
    }
    return { revealed };
  };

  const top = () => {
    for (const el of [document.scrollingElement, ...scrollers()]) if (el) el.scrollTop = 0;
    return {};
  };

  const pendingImages = () => {
    let pending = 0;
    for (const img of document.images) if (!img.complete && img.src) pending++;
    return { pending };
  };

  // Open what a reader can open: <details>, hidden=until-found, ARIA tab panels and
  // accordions, and "read more" buttons that do not navigate away.
  const expand = () => {
    const counts = { details: 0, untilFound: 0, tabs: 0, panels: 0, accordions: 0, readMore: 0 };
    const staysHere = (el) => {
      if (el.tagName !== "A") return true;
      const href = (el.getAttribute("href") || "").trim();
      return !href || href.startsWith("#") || href.toLowerCase().startsWith("javascript:");
    };
    // Tabs whose panel is built on first click (and then kept, hidden): click each once, so
    // every panel exists; the loop below then shows them all.
    const clicked = state.clickedTabs || (state.clickedTabs = new WeakSet());
    for (const tab of document.querySelectorAll("[role=tab]")) {
      if (counts.tabs >= 20) break;
      if (tab.getAttribute("aria-selected") === "true" || clicked.has(tab)) continue;
      if (tab.closest("nav, header, footer, [role=navigation], [role=menu]") || !staysHere(tab)) continue;
      const id = tab.getAttribute("aria-controls");
      const panel = id ? document.getElementById(id) : null;
      if (panel && (panel.textContent || "").trim()) continue; // already built
      try {
        clicked.add(tab);
        tab.click();
        counts.tabs++;
      } catch (e) {}
    }
    for (const el of document.querySelectorAll("details:not([open])")) {
      el.open = true;
      counts.details++;
    }
    for (const el of document.querySelectorAll("[hidden=until-found]")) {
      el.removeAttribute("hidden");
      counts.untilFound++;
    }
    for (const el of document.querySelectorAll("[role=tabpanel]")) {
      if (el.hidden || el.getAttribute("aria-hidden") === "true" || getComputedStyle(el).display === "none") {
        el.hidden = false;
        el.removeAttribute("aria-hidden");
        if (getComputedStyle(el).display === "none") el.style.setProperty("display", "block", "important");
        counts.panels++;
      }
    }
    for (const button of document.querySelectorAll("[aria-expanded=false][aria-controls]")) {
      const target = document.getElementById(button.getAttribute("aria-controls"));
      if (!target || button.closest("nav, header, footer, [role=navigation], [role=menu]")) continue;
      target.hidden = false;
      target.removeAttribute("aria-hidden");
      if (getComputedStyle(target).display === "none") target.style.setProperty("display", "block", "important");
      button.setAttribute("aria-expanded", "true");
      counts.accordions++;
    }
    const readMore = /^\s*(read|show|see|view|continue|expand)\s+(more|all|full|the\s+(rest|full\s+\w+)|reading)\b/i;
    // Both words are in the text content of any control whose rendered text reads so:
    // asked first, as innerText lays the page out and a news page has hundreds of links.
    const verb = /read|show|see|view|continue|expand/i;
    const object = /more|all|full|the|reading/i;
    // "Show more sharing options" opens a menu of share links: never content, and clicked it
    // put those links in the page that is read.
    const sharing = /\bshar(e|es|ing)\b/i;
    for (const el of document.querySelectorAll("button, [role=button], a")) {
      if (counts.readMore >= 5) break;
      const content = el.textContent || "";
      if (!verb.test(content) || !object.test(content)) continue;
      const text = (el.innerText || content).trim();
      if (text.length > 40 || !readMore.test(text) || sharing.test(text)) continue;
      if (!staysHere(el) || el.closest("nav, header, footer, [role=navigation]")) continue;
      try {
        el.click();
        counts.readMore++;
      } catch (e) {}
    }
    return counts;
  };

  // After scrolling hit its cap while the page still grew: the containers that kept receiving
  // new children until the last steps are endless feeds. Mark them so neither Readability.js
  // nor the extractor reads them as part of the article.
  const markFeeds = () => {
    let marked = 0;
    const appends = state.appends || new Map();
    for (const [el, entry] of appends) {
      if (!el.isConnected || entry.count < options.minFeedItems) continue;
      if (entry.lastStep < state.step - options.recentSteps) continue;
      if (el === document.body || el === document.documentElement) continue;
      el.setAttribute(options.feedAttribute, "");
      marked++;
    }
    return { marked };
  };

  // The steps before scrolling in one call (every call into the page is a round trip of a few
  // milliseconds, and a page complete at load needs nothing else): open what is folded away,
  // lift lazy loading, then the page's state as ``quiet`` reports it, with the images still
  // loading.
  const prepare = async () => {
    const expanded = options.expand ? expand() : null;
    const eagerResult = options.eager ? await eager() : null;
    return { expanded, eager: eagerResult, pending: pendingImages().pending, ...quiet() };
  };

  const actions = { quiet, step, reveal, top, pendingImages, expand, markFeeds, prepare, settled };
  const failed = (e) => ({ error: String(e && e.message ? e.message : e) });
  try {
    const result = actions[options.action]();
    return result instanceof Promise ? result.catch(failed) : result;
  } catch (e) {
    return failed(e);
  }
}
