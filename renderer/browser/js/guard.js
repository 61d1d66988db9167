// Init script (runs before any page script, in every frame): a page may not open windows.
// window.open returns null, as it does when a browser's popup blocker steps in, so pages
// handle it; the renderer also closes any page that opens anyway (a target=_blank click).
// Never throws into the page.
(() => {
  try {
    const blocked = function open() {
      return null;
    };
    Object.defineProperty(window, "open", {
      value: blocked,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  } catch (e) {
    /* never break the page */
  }
})();
