// Init script (runs before any page script, in every frame): makes every shadow root OPEN so
// the snapshot can read it, even when the page asks for {mode: "closed"}. The roots that were
// asked for closed are remembered in a WeakSet at window[Symbol.for("readermode.closedShadowRoots")].
// The page gets the real ShadowRoot back; attachShadow stays a (proxied) native function, with
// the same name, length and property attributes. Safe to run twice; never throws into the page.
(() => {
  try {
    const KEY = Symbol.for("readermode.closedShadowRoots");
    const g = globalThis;
    if (Object.prototype.hasOwnProperty.call(g, KEY)) return; // already patched in this realm
    const proto = typeof Element === "function" ? Element.prototype : null;
    const desc = proto && Object.getOwnPropertyDescriptor(proto, "attachShadow");
    if (!desc || typeof desc.value !== "function") return;
    const native = desc.value;
    const closedRoots = new WeakSet();
    Object.defineProperty(g, KEY, { value: closedRoots, enumerable: false });

    // Options the DOM knows today; for...in covers plain objects and anything added later.
    const KNOWN = ["delegatesFocus", "slotAssignment", "clonable", "serializable",
      "customElementRegistry", "referenceTarget"];
    const openCopy = (init) => {
      const copy = {};
      for (const k in init) copy[k] = init[k];
      for (const k of KNOWN) if (k in init) copy[k] = init[k];
      copy.mode = "open";
      return copy;
    };

    const patched = new Proxy(native, {
      apply(target, self, args) {
        const init = args[0];
        let copy = null;
        try {
          if (init !== null && typeof init === "object" && init.mode === "closed") copy = openCopy(init);
        } catch (e) {
          copy = null;
        }
        if (copy === null) return Reflect.apply(target, self, args);
        let root;
        try {
          root = Reflect.apply(target, self, [copy, ...Array.prototype.slice.call(args, 1)]);
        } catch (e) {
          // e.g. a declarative closed root is already there: the native call with the page's own
          // options reuses it (or throws the page's expected error).
          return Reflect.apply(target, self, args);
        }
        try {
          closedRoots.add(root);
        } catch (e) {
          /* never break the page */
        }
        return root;
      },
    });
    Object.defineProperty(proto, "attachShadow", {
      value: patched,
      writable: desc.writable,
      enumerable: desc.enumerable,
      configurable: desc.configurable,
    });
  } catch (e) {
    /* never break the page */
  }
})();
