// Init script (runs before any page script): counts DOM mutations so the renderer can tell
// when the page has stopped changing, and remembers what IntersectionObservers watch so the
// renderer can bring those targets into view.
(() => {
  if (window.__readermode) return;
  // appends: container -> {count, lastStep}: which elements receive new children, and during
  // which scroll step (state.step, advanced by settle.js), so an endless feed can be told
  // apart from an article that finished loading.
  const state = { mutations: 0, lastMutation: 0, observed: new Set(), appends: new Map(), step: 0 };
  Object.defineProperty(window, "__readermode", { value: state, enumerable: false });

  const observer = new MutationObserver((records) => {
    state.mutations += records.length;
    state.lastMutation = performance.now();
    for (const record of records) {
      if (record.type !== "childList" || !state.step) continue;
      let added = 0;
      for (const node of record.addedNodes) if (node.nodeType === 1) added++;
      if (!added) continue;
      const entry = state.appends.get(record.target) || { count: 0, lastStep: 0 };
      entry.count += added;
      entry.lastStep = state.step;
      state.appends.set(record.target, entry);
    }
  });
  observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  // The renderer's own changes (lazy images made eager, the content-visibility override) are
  // not the page changing: settle.js drops their records, synchronously after making them
  // (the page's earlier records were delivered at the end of their own task).
  state.forgetOwnChanges = () => observer.takeRecords().length;

  // Short timers the page has pending (skeletons replaced "in 1.5 s", text inserted after a
  // timeout): the renderer waits for them, bounded, before judging the page settled. Not
  // counted as pending: a timer re-armed from a timer's callback for the second time or more
  // (a poller, "check again in 750 ms", never ends: waiting for it only runs the clock out).
  // ``longTimers``: pending ones set for more than LONG_TIMER_MS (font-loader and third-party
  // fallbacks), which the renderer waits for only while the page has no article yet.
  // ``work`` counts everything else the page has scheduled (timeouts of any length up to 5 s,
  // intervals, animation frames, idle callbacks): when nothing is scheduled, nothing is in
  // flight and the DOM has not changed for a few frames, the page has nothing left to do, and
  // the renderer need not sit out its fixed quiet windows (settle.js's ``quiet``).
  const MAX_CHAIN = 2;
  const LONG_TIMER_MS = 1500;
  const pending = new Map(); // id -> [due, long]
  const work = { timeouts: new Set(), intervals: new Set(), frames: new Set(), idle: new Set() };
  const nativeSetTimeout = window.setTimeout;
  const nativeClearTimeout = window.clearTimeout;
  let chain = 0; // while a timer's callback runs: how many timers led to it
  window.setTimeout = function (callback, delay, ...rest) {
    const ms = Number(delay) || 0;
    if (typeof callback !== "function" || ms > 5000) {
      return nativeSetTimeout.call(window, callback, delay, ...rest);
    }
    let id;
    const depth = chain;
    const wrapped = function () {
      pending.delete(id);
      work.timeouts.delete(id);
      const outer = chain;
      chain = depth + 1;
      try {
        return callback.apply(this, arguments);
      } finally {
        chain = outer;
      }
    };
    id = nativeSetTimeout.call(window, wrapped, delay, ...rest);
    work.timeouts.add(id);
    if (ms >= 50 && depth < MAX_CHAIN) pending.set(id, [performance.now() + ms, ms > LONG_TIMER_MS]);
    return id;
  };
  window.clearTimeout = function (id) {
    pending.delete(id);
    work.timeouts.delete(id);
    return nativeClearTimeout.call(window, id);
  };
  const prune = () => {
    const now = performance.now();
    for (const [id, [due]] of pending) if (due < now - 1000) pending.delete(id);
  };
  state.pendingTimers = () => {
    prune();
    return pending.size;
  };
  state.longTimers = () => {
    prune();
    let long = 0;
    for (const [, [, isLong]] of pending) if (isLong) long++;
    return long;
  };
  // One scheduler and its canceller, wrapped so ``work[kind]`` holds what is still to run.
  const track = (schedule, cancel, kind) => {
    const nativeSchedule = window[schedule];
    const nativeCancel = window[cancel];
    if (typeof nativeSchedule !== "function" || typeof nativeCancel !== "function") return;
    const once = kind !== "intervals";
    window[schedule] = function (callback, ...rest) {
      if (typeof callback !== "function") return nativeSchedule.call(window, callback, ...rest);
      let id;
      const wrapped = function () {
        if (once) work[kind].delete(id);
        return callback.apply(this, arguments);
      };
      id = nativeSchedule.call(window, wrapped, ...rest);
      work[kind].add(id);
      return id;
    };
    window[cancel] = function (id) {
      work[kind].delete(id);
      return nativeCancel.call(window, id);
    };
  };
  track("setInterval", "clearInterval", "intervals");
  track("requestAnimationFrame", "cancelAnimationFrame", "frames");
  track("requestIdleCallback", "cancelIdleCallback", "idle");
  // Schedulers that post messages to themselves instead of using timers (React's scheduler
  // yields through a MessageChannel every few milliseconds while it renders, without touching
  // the DOM until it commits) and ``scheduler.postTask``: a message posted within the last
  // MESSAGE_BUSY_MS, or a task not yet run, counts as work still scheduled.
  const MESSAGE_BUSY_MS = 50;
  let lastPosted = -1e9;
  const notePost = (proto) => {
    const native = proto && proto.postMessage;
    if (typeof native !== "function") return;
    proto.postMessage = function () {
      lastPosted = performance.now();
      return native.apply(this, arguments);
    };
  };
  if (typeof MessagePort === "function") notePost(MessagePort.prototype);
  notePost(window);
  let postedTasks = 0;
  if (window.scheduler && typeof window.scheduler.postTask === "function") {
    const nativePostTask = window.scheduler.postTask;
    window.scheduler.postTask = function () {
      const task = nativePostTask.apply(this, arguments);
      postedTasks++;
      const done = () => postedTasks--;
      Promise.resolve(task).then(done, done);
      return task;
    };
  }
  const messaging = () => (performance.now() - lastPosted < MESSAGE_BUSY_MS ? 1 : 0) + postedTasks;
  // What a scroll step may have scheduled: one-shot work, not the intervals and animations a
  // page runs all along.
  state.oneShot = () => work.timeouts.size + work.frames.size + work.idle.size + messaging();
  state.sinceMutation = () => (state.lastMutation ? performance.now() - state.lastMutation : 1e9);
  state.scheduled = () => {
    let running = 0;
    try {
      if (typeof document.getAnimations === "function") {
        for (const a of document.getAnimations()) if (a.playState === "running") running++;
      }
    } catch (e) {
      running = 1; // cannot tell: assume something still moves
    }
    return (
      work.timeouts.size + work.intervals.size + work.frames.size + work.idle.size + running + messaging()
    );
  };

  // The last contentvisibilityautostatechange of each content-visibility:auto element: pages
  // that fill such a section only once it is rendered are read once every section says so.
  // ``autoSkipping``: how many such elements skip their contents now (an element removed while
  // skipped still counts: that only costs the renderer a wait it could have spared).
  const autoSkipped = new WeakMap();
  let skipping = 0;
  document.addEventListener(
    "contentvisibilityautostatechange",
    (event) => {
      const was = autoSkipped.get(event.target) === true;
      if (event.skipped && !was) skipping++;
      if (!event.skipped && was) skipping--;
      autoSkipped.set(event.target, event.skipped);
    },
    true
  );
  state.autoSkipped = (el) => autoSkipped.get(el);
  state.autoSkipping = () => skipping;

  // Scroll, wheel and touch listeners the page adds: with none of them, no IntersectionObserver
  // target and nothing scheduled, scrolling cannot change the page, and the renderer skips it.
  const SCROLL_EVENTS = new Set(["scroll", "wheel", "mousewheel", "touchmove", "scrollend"]);
  state.scrollListeners = 0;
  const nativeAddEventListener = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (type) {
    try {
      if (SCROLL_EVENTS.has(String(type).toLowerCase())) state.scrollListeners++;
    } catch (e) {
      /* never break the page */
    }
    return nativeAddEventListener.apply(this, arguments);
  };

  const Native = window.IntersectionObserver;
  if (typeof Native === "function") {
    const observe = Native.prototype.observe;
    Native.prototype.observe = function (target) {
      try {
        if (target instanceof Element) state.observed.add(new WeakRef(target));
      } catch (e) {
        /* never break the page */
      }
      return observe.apply(this, arguments);
    };
  }
})();
