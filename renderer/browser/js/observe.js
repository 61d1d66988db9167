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

  // Counts records as they come; returns how many changed content (nodes added or removed,
  // text changed), as opposed to attributes (a carousel's classes, an animation's styles).
  const record = (records) => {
    if (!records.length) return 0;
    state.mutations += records.length;
    state.lastMutation = performance.now();
    let content = 0;
    for (const record of records) {
      if (record.type !== "attributes") content++;
      if (record.type !== "childList" || !state.step) continue;
      let added = 0;
      for (const node of record.addedNodes) if (node.nodeType === 1) added++;
      if (!added) continue;
      const entry = state.appends.get(record.target) || { count: 0, lastStep: 0 };
      entry.count += added;
      entry.lastStep = state.step;
      state.appends.set(record.target, entry);
    }
    return content;
  };
  const observer = new MutationObserver(record);
  observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  // The renderer's own changes (lazy images made eager, the content-visibility override) are
  // not the page changing: settle.js drops their records, synchronously after making them
  // (the page's earlier records were delivered at the end of their own task).
  state.forgetOwnChanges = () => observer.takeRecords().length;

  // Runs one of the page's scheduled callbacks and calls ``changed`` if it changed content
  // (its records are taken at once and counted as the observer would have).
  const run = (callback, self, args, changed) => {
    try {
      return callback.apply(self, args);
    } finally {
      try {
        if (record(observer.takeRecords()) > 0) changed();
      } catch (e) {
        /* never break the page */
      }
    }
  };

  // Timeouts of up to 5 s the page has set (id -> {due, ms, depth, chain}). Pending, waited for
  // by the renderer (bounded) before it judges the page settled: those of 50 ms or more
  // (skeletons replaced "in 1.5 s", text inserted after a timeout), except a timer re-armed
  // from a timer's callback for the second time or more (``depth``: a poller, "check again in
  // 750 ms", never ends). ``longTimers``: pending ones set for more than LONG_TIMER_MS
  // (font-loader and third-party fallbacks), which the renderer waits for only while the page
  // has no article yet. A chain of timers that never changed content is no work left to do;
  // one that did (a renderer in chunks) is.
  const MAX_CHAIN = 2;
  const LONG_TIMER_MS = 1500;
  const timeouts = new Map();
  const nativeSetTimeout = window.setTimeout;
  const nativeClearTimeout = window.clearTimeout;
  let current = null; // the timer whose callback runs now
  window.setTimeout = function (callback, delay, ...rest) {
    const ms = Number(delay) || 0;
    if (typeof callback !== "function" || ms > 5000) {
      return nativeSetTimeout.call(window, callback, delay, ...rest);
    }
    const parent = current;
    const timer = {
      due: performance.now() + ms,
      ms,
      depth: parent ? parent.depth + 1 : 0,
      chain: parent ? parent.chain : { changedContent: false },
    };
    let id;
    const wrapped = function () {
      timeouts.delete(id);
      const outer = current;
      current = timer;
      try {
        return run(callback, this, arguments, () => (timer.chain.changedContent = true));
      } finally {
        current = outer;
      }
    };
    id = nativeSetTimeout.call(window, wrapped, delay, ...rest);
    timeouts.set(id, timer);
    return id;
  };
  window.clearTimeout = function (id) {
    timeouts.delete(id);
    return nativeClearTimeout.call(window, id);
  };
  // (a timer more than a second overdue will not run: a throttled or frozen frame)
  const pendingOnes = () => {
    const now = performance.now();
    const found = [];
    for (const timer of timeouts.values()) {
      if (timer.ms >= 50 && timer.depth < MAX_CHAIN && timer.due >= now - 1000) found.push(timer);
    }
    return found;
  };
  state.pendingTimers = () => pendingOnes().length;
  state.longTimers = () => pendingOnes().filter((timer) => timer.ms > LONG_TIMER_MS).length;
  const timeoutWork = (skipLong) => {
    let count = 0;
    for (const timer of timeouts.values()) {
      if (skipLong && timer.ms > LONG_TIMER_MS) continue;
      if (timer.depth >= MAX_CHAIN && !timer.chain.changedContent) continue;
      count++;
    }
    return count;
  };

  // Intervals: only one that has changed content counts as work (a clock, a ticker, a renderer
  // in chunks); a heartbeat, a carousel's class toggle or a poller that found nothing yet does
  // not hold the page. One of up to LONG_TIMER_MS that has not run yet counts too, until it
  // has (or is a second overdue: a throttled frame): what it does is not known yet, and a page
  // that appends its text from an interval would otherwise be judged done before the first
  // tick (on a loaded machine, even a 20 ms interval can tick after the first snapshot).
  const intervals = new Map(); // id -> {changedContent, ran, ms, firstDue}
  const nativeSetInterval = window.setInterval;
  const nativeClearInterval = window.clearInterval;
  window.setInterval = function (callback, delay, ...rest) {
    if (typeof callback !== "function") return nativeSetInterval.call(window, callback, delay, ...rest);
    const ms = Number(delay) || 0;
    const interval = { changedContent: false, ran: false, ms, firstDue: performance.now() + ms };
    const wrapped = function () {
      interval.ran = true;
      return run(callback, this, arguments, () => (interval.changedContent = true));
    };
    const id = nativeSetInterval.call(window, wrapped, delay, ...rest);
    intervals.set(id, interval);
    return id;
  };
  window.clearInterval = function (id) {
    intervals.delete(id);
    return nativeClearInterval.call(window, id);
  };
  const notRunYet = (interval, now) =>
    !interval.ran && interval.ms <= LONG_TIMER_MS && now < interval.firstDue + 1000;
  const intervalWork = () => {
    const now = performance.now();
    let count = 0;
    for (const interval of intervals.values()) if (interval.changedContent || notRunYet(interval, now)) count++;
    return count;
  };

  // ``work`` holds the animation frames and idle callbacks still to run.
  const work = { frames: new Set(), idle: new Set() };
  // One scheduler and its canceller, wrapped so ``work[kind]`` holds what is still to run.
  const track = (schedule, cancel, kind) => {
    const nativeSchedule = window[schedule];
    const nativeCancel = window[cancel];
    if (typeof nativeSchedule !== "function" || typeof nativeCancel !== "function") return;
    window[schedule] = function (callback, ...rest) {
      if (typeof callback !== "function") return nativeSchedule.call(window, callback, ...rest);
      let id;
      const wrapped = function () {
        work[kind].delete(id);
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
  state.oneShot = () => timeouts.size + work.frames.size + work.idle.size + messaging();
  state.sinceMutation = () => (state.lastMutation ? performance.now() - state.lastMutation : 1e9);
  // Animations that will end (an entrance fading content in); one that repeats forever (a
  // spinner, a pulsing badge, a gradient) never ends, and waiting for it only spent the budget.
  const endsSometime = (a) => {
    const timing = a.effect && a.effect.getComputedTiming ? a.effect.getComputedTiming() : null;
    return !timing || timing.endTime !== Infinity;
  };
  const runningAnimations = () => {
    let running = 0;
    try {
      if (typeof document.getAnimations === "function") {
        for (const a of document.getAnimations()) if (a.playState === "running" && endsSometime(a)) running++;
      }
    } catch (e) {
      running = 1; // cannot tell: assume something still moves
    }
    return running;
  };
  const frameWork = () => work.frames.size + work.idle.size + runningAnimations() + messaging();
  // The work that keeps the page from being done. ``skipLong``: the page has its article, long
  // timers do not count (see ``timeouts``).
  state.scheduled = (skipLong) => timeoutWork(Boolean(skipLong)) + intervalWork() + frameWork();
  // Everything scheduled, pollers and heartbeats too: a poller may be watching the scroll
  // position, so only a page with nothing at all scheduled is left unscrolled.
  state.anything = () => timeouts.size + intervals.size + frameWork();

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

  // ResizeObserver targets (a count that only grows): their callbacks, like an
  // IntersectionObserver's, run in a rendering frame, so a page with either waits for frames
  // before it is judged idle; a page with neither has nothing a frame could start.
  state.resizeObserved = 0;
  const NativeResize = window.ResizeObserver;
  if (typeof NativeResize === "function") {
    const observeSize = NativeResize.prototype.observe;
    NativeResize.prototype.observe = function () {
      state.resizeObserved++;
      return observeSize.apply(this, arguments);
    };
  }

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
