// Snapshot of the rendered page as one HTML document string, for the Python extractor.
// One function expression: page.evaluate(source, options) -> {html, baseURI, url, title, stats}.
//
// options: {hiddenAttribute: "data-readermode-hidden", visibleAttribute: "data-readermode-visible",
//           maxElements: 200000, maxDepth: 1000, maxBytes: 0 (no cap),
//           boxAttribute: "" (no boxes), viewportAttribute: "data-readermode-viewport"}
//
// Walks the LIVE DOM (never changes it) in flat-tree order and serialises it itself:
//  - shadow roots (open, or closed made open by init.js) replace the host's light children; a
//    <slot> is replaced by its assigned nodes (or its fallback content); nested roots too;
//  - readable (same-origin) <iframe>/<frame> documents become
//    <div data-readermode-frame="SRC">...their body's children...</div> (depth <= 5); other
//    frames are dropped;
//  - elements a reader cannot see get hiddenAttribute="display|visibility|zero-size|offscreen|
//    overlay". A subtree marked for any reason but "visibility" is not looked into further (its
//    content is serialised as is). visibility is inherited and can be undone: the element where
//    it becomes hidden is marked "visibility", and a descendant where it becomes visible again
//    gets visibleAttribute="visibility" (keep that subtree when removing the hidden one);
//  - lazy <img>: a loaded currentSrc, else data-src & co. when src is a placeholder, becomes src;
//    src/href/poster/srcset... are made absolute against the element's document baseURI;
//  - script, noscript, style, stylesheet links, template, comments are left out (but React's
//    empty <template id="B:x"/"P:x"> slots and Suspense comments, for streamed parts its
//    scripts never placed); <head> keeps title, meta (a <meta charset="utf-8"> replaces the
//    page's charset declarations), base, link rel=canonical and application/ld+json scripts
//    (also kept in the body);
//  - a <base href> with the document's baseURI is always present;
//  - elements nested deeper than maxDepth (only scripts build such trees; libxml2 drops
//    everything from depth ~2046 on, even with huge_tree) are left out, their content is kept;
//  - after maxElements elements, or once the output would pass maxBytes (UTF-8 bytes, the closing
//    tags still owed included), nothing more is written: stats.truncated, and stats.truncatedBy
//    "elements" or "bytes". A text node that does not fit is cut. The tags left open are closed,
//    so the output stays balanced and within maxBytes.
//  - with a boxAttribute, each visible block (display block, flex, grid, list-item, table,
//    flow-root or their inline kinds) of the top document gets
//    boxAttribute="x,y,width,height,fontSize" (CSS px, page coordinates), and <html>
//    viewportAttribute="width,height,pageWidth,pageHeight": the layout a static page cannot
//    show (RenderOptions.record_layout; scripts/layout_features.py reads them).
// Never throws: a failing element is serialised without marks; a failing walk falls back to
// the plain outerHTML with stats.failed set.
(options) => {
  const started = performance.now();
  const opts = options && typeof options === "object" ? options : {};
  const NAME_RE = /^[a-zA-Z_][a-zA-Z0-9_.:-]*$/;
  const attrOption = (v, d) => (typeof v === "string" && NAME_RE.test(v) ? v.toLowerCase() : d);
  const HIDDEN_ATTR = attrOption(opts.hiddenAttribute, "data-readermode-hidden");
  const VISIBLE_ATTR = attrOption(opts.visibleAttribute, "data-readermode-visible");
  const FRAME_ATTR = "data-readermode-frame";
  const BOX_ATTR = attrOption(opts.boxAttribute, "");
  const VIEWPORT_ATTR = attrOption(opts.viewportAttribute, "data-readermode-viewport");
  const BOXES = BOX_ATTR !== "";
  const MAX_ELEMENTS =
    typeof opts.maxElements === "number" && opts.maxElements > 0 ? Math.floor(opts.maxElements) : 200000;
  const MAX_DEPTH =
    typeof opts.maxDepth === "number" && opts.maxDepth > 0 ? Math.floor(opts.maxDepth) : 1000;
  const MAX_BYTES =
    typeof opts.maxBytes === "number" && opts.maxBytes > 0 ? Math.floor(opts.maxBytes) : Infinity;
  const MAX_FRAME_DEPTH = 5;
  const SCAN_LIMIT = 500; // descendants looked at to decide zero-size / off-screen extent
  const TEXT_LIMIT = 200000; // nodes looked at to weigh an overlay's text against the page's
  const XHTML = "http://www.w3.org/1999/xhtml";
  const CLOSED_KEY = Symbol.for("readermode.closedShadowRoots");

  const stats = {
    elements: 0,
    shadowRoots: 0,
    closedShadowRoots: 0,
    frames: 0,
    framesDropped: 0,
    hidden: { display: 0, visibility: 0, "zero-size": 0, offscreen: 0, overlay: 0 },
    lazyImages: 0,
    flattened: 0,
    truncated: false,
    truncatedBy: null,
    bytes: 0,
    errors: 0,
    ms: 0,
  };

  const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
    "source", "track", "wbr", "param", "keygen", "basefont", "bgsound", "frame"]);
  const DROP = new Set(["script", "noscript", "style", "template", "noembed", "noframes"]);
  const STREAM_SLOT = /^[BP]:[0-9a-zA-Z]+$/; // React's boundary and placeholder templates
  const STREAM_MARKS = new Set(["$?", "$", "$!", "/$"]); // React's Suspense boundary comments
  const RENAME = new Map([["frameset", "div"], ["xmp", "pre"], ["listing", "pre"], ["plaintext", "pre"],
    ["html", "div"], ["head", "div"], ["body", "div"]]);
  const URL_ATTRS = new Set(["href", "src", "poster", "cite", "action", "formaction", "background",
    "longdesc", "xlink:href"]);
  const NO_GEOMETRY = new Set(["html", "body", "br", "wbr", "area", "map", "source", "track", "param",
    "col", "colgroup", "option", "optgroup", "datalist"]);
  const REPLACED = new Set(["img", "video", "audio", "canvas", "svg", "iframe", "frame", "embed",
    "object", "input", "textarea", "select", "math", "meter", "progress"]);
  const LAZY_ATTRS = ["data-src", "data-original", "data-lazy-src", "data-lazy", "data-original-src",
    "data-hi-res-src", "data-url"];
  const PLACEHOLDER_RE = /placeholder|blank|spacer|1x1|lazy|transparent|pixel\.gif|loading\.gif|loader\.gif|gr[ae]y\.gif|empty\.gif/i;
  const ATTR_NAME_RE = /^[^\s"'<>\/=\u0000-\u001f\u007f]+$/;

  const escText = (s) =>
    /[&<>]/.test(s) ? s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;") : s;
  const escAttr = (s) =>
    /[&<>"]/.test(s)
      ? s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")
      : s;

  // ---- per-document facts -------------------------------------------------------------------
  const infos = new Map();
  const infoOf = (doc) => {
    let info = infos.get(doc);
    if (!info) {
      let base = "";
      try {
        base = doc.baseURI || doc.URL || "";
      } catch (e) {
        base = "";
      }
      info = { doc, win: doc.defaultView, base, geo: null, range: null, bodyText: -1, modals: null };
      infos.set(doc, info);
    }
    return info;
  };
  const geoOf = (info) => {
    if (!info.geo) {
      const win = info.win;
      const doc = info.doc;
      const se = doc.scrollingElement || doc.documentElement;
      const vw = win.innerWidth || (se && se.clientWidth) || 0;
      const vh = win.innerHeight || (se && se.clientHeight) || 0;
      const W = Math.max(se ? se.scrollWidth : 0, vw);
      const H = Math.max(se ? se.scrollHeight : 0, vh);
      let rtl = false;
      let bodyScrolls = false; // body overflow only clips when <html>'s is not visible
      let noScrollX = false; // overflow-x: hidden on the viewport: nothing to scroll to sideways
      try {
        const cs = win.getComputedStyle(doc.documentElement);
        rtl = cs.direction === "rtl";
        bodyScrolls = cs.overflowX !== "visible" || cs.overflowY !== "visible";
        let ox = cs.overflowX;
        if (ox === "visible" && doc.body) ox = win.getComputedStyle(doc.body).overflowX;
        noScrollX = ox === "hidden" || ox === "clip";
      } catch (e) {
        rtl = false;
      }
      const wide = noScrollX ? vw : W;
      info.geo = { vw, vh, sx: win.scrollX || 0, sy: win.scrollY || 0,
        minX: rtl ? vw - wide : 0, maxX: rtl ? vw : wide, H, bodyScrolls };
    }
    return info.geo;
  };

  // ---- flat tree ------------------------------------------------------------------------------
  const inShadowTree = (el) => {
    const root = el.getRootNode ? el.getRootNode() : null;
    return !!root && root.nodeType === 11 && !!root.host;
  };
  const isSlot = (el) => el.localName === "slot" && el.namespaceURI === XHTML && inShadowTree(el);
  // Children in the flat tree; `count` adds shadow roots to the stats.
  const kids = (el, info, count) => {
    if (el.localName === "slot" && isSlot(el)) {
      let assigned = null;
      try {
        assigned = el.assignedNodes();
      } catch (e) {
        assigned = null;
      }
      return assigned && assigned.length ? assigned : el.childNodes;
    }
    let sr = null;
    try {
      sr = el.shadowRoot;
    } catch (e) {
      sr = null;
    }
    if (sr) {
      if (count) {
        stats.shadowRoots++;
        try {
          const closed = info && info.win && info.win[CLOSED_KEY];
          if (closed && closed.has(sr)) stats.closedShadowRoots++;
        } catch (e) {
          /* stats only */
        }
      }
      return sr.childNodes;
    }
    return el.childNodes;
  };

  // ---- URLs and images ------------------------------------------------------------------------
  const absUrl = (v, base) => {
    const t = v.trim();
    if (!t || /^(?:data|javascript|mailto|tel|blob|about):/i.test(t)) return v;
    try {
      return new URL(t, base).href;
    } catch (e) {
      return v;
    }
  };
  const parseSrcset = (s) => {
    const out = [];
    const n = s.length;
    let i = 0;
    while (i < n) {
      while (i < n && /[\s,]/.test(s[i])) i++;
      if (i >= n) break;
      let j = i;
      while (j < n && !/\s/.test(s[j])) j++;
      let url = s.slice(i, j);
      let desc = "";
      if (/,$/.test(url)) {
        url = url.replace(/,+$/, "");
        i = j;
      } else {
        let k = j;
        let depth = 0;
        while (k < n) {
          const c = s[k];
          if (c === "(") depth++;
          else if (c === ")") depth--;
          else if (c === "," && depth <= 0) break;
          k++;
        }
        desc = s.slice(j, k).trim();
        i = k + 1;
      }
      if (url) out.push({ url, desc });
    }
    return out;
  };
  const absSrcset = (v, base) => {
    try {
      const c = parseSrcset(v);
      if (!c.length) return v;
      return c.map((x) => (x.desc ? absUrl(x.url, base) + " " + x.desc : absUrl(x.url, base))).join(", ");
    } catch (e) {
      return v;
    }
  };
  const largestCandidate = (v) => {
    let best = null;
    let bestW = -1;
    let bestX = -1;
    let bestIsW = false;
    for (const c of parseSrcset(v)) {
      if (/^data:/i.test(c.url)) continue;
      const m = /^(\d+(?:\.\d+)?)([wx])$/i.exec(c.desc.split(/\s+/)[0] || "");
      if (m && m[2].toLowerCase() === "w") {
        const w = parseFloat(m[1]);
        if (!bestIsW || w > bestW) {
          best = c.url;
          bestW = w;
          bestIsW = true;
        }
      } else if (!bestIsW) {
        const x = m ? parseFloat(m[1]) : 1;
        if (x > bestX) {
          best = c.url;
          bestX = x;
        }
      }
    }
    return best;
  };
  const isPlaceholder = (v) => {
    if (v == null) return true;
    const t = v.trim();
    return !t || /^(?:data:|about:blank)/i.test(t) || PLACEHOLDER_RE.test(t);
  };
  // The src to write for an <img>, or null to leave the attributes alone.
  const imageSrc = (img, base) => {
    let current = "";
    let loaded = false;
    try {
      current = img.currentSrc || "";
      loaded = !!current && img.complete && img.naturalWidth > 0;
    } catch (e) {
      loaded = false;
    }
    if (loaded && !isPlaceholder(current) && !(img.naturalWidth <= 1 && img.naturalHeight <= 1)) {
      return current;
    }
    const raw = img.getAttribute("src");
    if (!loaded && !isPlaceholder(raw)) return absUrl(raw, base);
    for (const a of LAZY_ATTRS) {
      const v = img.getAttribute(a);
      if (v && v.trim() && !/^data:/i.test(v.trim())) {
        stats.lazyImages++;
        return absUrl(v, base);
      }
    }
    const sets = [img.getAttribute("data-srcset"), img.getAttribute("srcset")];
    const parent = img.parentElement;
    if (parent && parent.localName === "picture") {
      for (const s of parent.children) {
        if (s.localName === "source") sets.push(s.getAttribute("data-srcset"), s.getAttribute("srcset"));
      }
    }
    for (const s of sets) {
      const best = s ? largestCandidate(s) : null;
      if (best) {
        stats.lazyImages++;
        return absUrl(best, base);
      }
    }
    if (loaded) return current;
    return raw == null ? null : absUrl(raw, base);
  };

  // An open modal dialog makes modal libraries and consent managers hide the rest of the page
  // from assistive technology (aria-hidden, inert on its wrappers): a reader still sees that
  // page behind the dialog, so those wrappers (the siblings of the modal's ancestors) lose
  // aria-hidden and inert in the snapshot, and the modal is weighed as an overlay (classify).
  const MODAL_SELECTOR = 'dialog[open], [aria-modal="true"], [role="dialog"], [role="alertdialog"]';
  const modalsOf = (info) => {
    if (info.modals) return info.modals;
    const modals = new Set();
    const wrappers = new Set();
    try {
      for (const m of info.doc.querySelectorAll(MODAL_SELECTOR)) {
        if (typeof m.checkVisibility !== "function" || m.checkVisibility()) modals.add(m);
      }
      for (const m of modals) {
        for (let a = m; a.parentElement; a = a.parentElement) {
          for (const sib of a.parentElement.children) {
            if (sib === a || modals.has(sib)) continue;
            if (sib.getAttribute("aria-hidden") === "true" || sib.hasAttribute("inert")) wrappers.add(sib);
          }
        }
      }
    } catch (e) {
      stats.errors++;
    }
    info.modals = { modals, wrappers };
    return info.modals;
  };

  const attributes = (el, info, html, name) => {
    let s = "";
    const base = info.base;
    const src = html && name === "img" ? imageSrc(el, base) : null;
    let wroteSrc = false;
    const attrs = el.attributes;
    for (let i = 0; i < attrs.length; i++) {
      const a = attrs[i];
      const n = a.name;
      const ln = n.toLowerCase();
      if (ln === HIDDEN_ATTR || ln === VISIBLE_ATTR || ln === FRAME_ATTR) continue;
      if (!ATTR_NAME_RE.test(n)) continue;
      if ((ln === "aria-hidden" || ln === "inert") && html && modalsOf(info).wrappers.has(el)) continue;
      let v = a.value;
      if (src !== null && ln === "src") {
        v = src;
        wroteSrc = true;
      } else if (URL_ATTRS.has(ln)) {
        if (html || v.trim().charAt(0) !== "#") v = absUrl(v, base);
      } else if (ln === "srcset" || ln === "imagesrcset") {
        v = absSrcset(v, base);
      }
      s += " " + n + '="' + escAttr(v) + '"';
    }
    if (src !== null && !wroteSrc) s += ' src="' + escAttr(src) + '"';
    return s;
  };

  // ---- what a reader cannot see ---------------------------------------------------------------
  const clipsOverflow = (cs) => cs.overflowX !== "visible" && cs.overflowY !== "visible";
  // "sr-only" patterns: clip: rect(0 0 0 0) / rect(1px ...), clip-path: inset(50%), a 1px box.
  const clippedAway = (cs, w, h) => {
    const clip = cs.clip;
    if (clip && clip !== "auto") {
      const m = /rect\(([^)]*)\)/.exec(clip);
      if (m) {
        const p = m[1].split(/[\s,]+/).filter(Boolean).map((v) => (v === "auto" ? NaN : parseFloat(v)));
        if (p.length === 4) {
          const cw = (isNaN(p[1]) ? w : p[1]) - (isNaN(p[3]) ? 0 : p[3]);
          const ch = (isNaN(p[2]) ? h : p[2]) - (isNaN(p[0]) ? 0 : p[0]);
          if (cw <= 1 || ch <= 1) return true;
        }
      }
    }
    const cp = cs.clipPath;
    if (cp && /^inset\(\s*(?:50|100)%/.test(cp)) return true;
    return w <= 1 && h <= 1 && (w > 0 || h > 0) && clipsOverflow(cs);
  };
  const isImgPending = (el) => {
    try {
      return !(el.complete && el.naturalWidth > 0);
    } catch (e) {
      return true;
    }
  };
  // Looks at up to SCAN_LIMIT flat-tree descendants: do any have a box with a size, and where?
  // An image still loading counts as sized (it will be).
  const scan = (el, info, firstOnly) => {
    const res = { sized: false, limit: false, l: Infinity, t: Infinity, r: -Infinity, b: -Infinity };
    const stack = [];
    const pushAll = (list) => {
      for (let i = list.length - 1; i >= 0; i--) stack.push(list[i]);
    };
    pushAll(kids(el, info, false));
    let seen = 0;
    while (stack.length) {
      const node = stack.pop();
      if (++seen > SCAN_LIMIT) {
        res.limit = true;
        return res;
      }
      let rect = null;
      let sized = false;
      if (node.nodeType === 3) {
        if (!/\S/.test(node.data)) continue;
        if (!info.range) info.range = info.doc.createRange();
        info.range.selectNodeContents(node);
        rect = info.range.getBoundingClientRect();
      } else if (node.nodeType === 1) {
        const nm = node.localName;
        const html = node.namespaceURI === XHTML;
        if (html && DROP.has(nm)) continue;
        rect = node.getBoundingClientRect();
        if (html && nm === "img" && isImgPending(node)) sized = true;
        else if (!(html && (nm === "iframe" || nm === "frame"))) pushAll(kids(node, info, false));
      } else {
        continue;
      }
      if (sized || rect.width > 0 || rect.height > 0) {
        res.sized = true;
        res.l = Math.min(res.l, rect.left);
        res.t = Math.min(res.t, rect.top);
        res.r = Math.max(res.r, rect.right);
        res.b = Math.max(res.b, rect.bottom);
        if (firstOnly) return res;
      }
    }
    return res;
  };
  // The area an absolutely positioned box can be scrolled into view in, in viewport
  // coordinates: its nearest scrolling (or clipping) ancestor's scrollable overflow, else the
  // document's. (An app whose content scrolls inside a full-page <div>, scrolled or not, is
  // measured against that <div>, not against the document, which does not scroll.)
  const scrollArea = (el, info) => {
    const geo = geoOf(info);
    const doc = info.doc;
    let node = el;
    for (let i = 0; i < 64; i++) {
      node = node.assignedSlot || node.parentElement || (node.parentNode && node.parentNode.host) || null;
      if (!node || node === doc.documentElement) break;
      if (node === doc.body && !geo.bodyScrolls) break;
      const cs = info.win.getComputedStyle(node);
      if (cs.overflowX === "visible" && cs.overflowY === "visible") continue;
      if (cs.display === "contents" || cs.display === "inline") continue;
      const r = node.getBoundingClientRect();
      const cw = node.clientWidth;
      const sw = Math.max(node.scrollWidth, cw);
      const sh = Math.max(node.scrollHeight, node.clientHeight);
      let left = r.left + node.clientLeft - node.scrollLeft;
      if (cs.direction === "rtl") left += cw - sw;
      const top = r.top + node.clientTop - node.scrollTop;
      return { left, top, right: left + sw, bottom: top + sh };
    }
    return { left: geo.minX - geo.sx, top: -geo.sy, right: geo.maxX - geo.sx, bottom: geo.H - geo.sy };
  };
  // Is the box entirely outside where it could ever be seen? Fixed boxes: the viewport;
  // absolute ones: scrollArea. A box without area (an empty element) must be strictly outside.
  const outside = (box, fixed, el, info) => {
    const geo = geoOf(info);
    const area = box.right > box.left && box.bottom > box.top;
    const out = (a) =>
      area
        ? box.right <= a.left || box.bottom <= a.top || box.left >= a.right || box.top >= a.bottom
        : box.right < a.left || box.bottom < a.top || box.left > a.right || box.top > a.bottom;
    const viewport = { left: 0, top: 0, right: geo.vw, bottom: geo.vh };
    if (!out(viewport)) return false; // on screen now
    return fixed || out(scrollArea(el, info));
  };
  // Characters of (non-blank) text in a flat subtree, readable frames included, bounded.
  const textLength = (root, info) => {
    let total = 0;
    let seen = 0;
    const stack = [root];
    while (stack.length && seen++ < TEXT_LIMIT) {
      const node = stack.pop();
      if (node.nodeType === 3) {
        total += node.data.replace(/\s+/g, "").length;
      } else if (node.nodeType === 1) {
        const nm = node.localName;
        const html = node.namespaceURI === XHTML;
        if (html && DROP.has(nm)) continue;
        if (html && (nm === "iframe" || nm === "frame")) {
          try {
            const d = node.contentDocument;
            if (d && (d.body || d.documentElement)) stack.push(d.body || d.documentElement);
          } catch (e) {
            /* unreadable frame */
          }
          continue;
        }
        const list = kids(node, info, false);
        for (let i = list.length - 1; i >= 0; i--) stack.push(list[i]);
      }
    }
    return total;
  };
  // A fixed/sticky layer over >= 90% of the viewport, above the page (z-index >= 1), that does
  // not hold most of the page's text (that would be an app shell that scrolls inside).
  const isOverlay = (el, rect, cs, info) => {
    const z = parseInt(cs.zIndex, 10);
    if (!(z >= 1)) return false;
    const geo = geoOf(info);
    const iw = Math.max(0, Math.min(rect.right, geo.vw) - Math.max(rect.left, 0));
    const ih = Math.max(0, Math.min(rect.bottom, geo.vh) - Math.max(rect.top, 0));
    if (!(geo.vw > 0 && geo.vh > 0) || iw * ih < 0.9 * geo.vw * geo.vh) return false;
    if (parseFloat(cs.opacity) === 0) return false;
    if (info.bodyText < 0) info.bodyText = textLength(info.doc.body || info.doc.documentElement, info);
    return textLength(el, info) * 2 < info.bodyText;
  };
  // An open modal that hid the page behind it, holding less than half of the page's text.
  const isHidingModal = (el, info) => {
    const found = modalsOf(info);
    if (!found.wrappers.size || !found.modals.has(el)) return false;
    if (info.bodyText < 0) info.bodyText = textLength(info.doc.body || info.doc.documentElement, info);
    return textLength(el, info) * 2 < info.bodyText;
  };
  const hasContent = (el, info) => {
    const list = kids(el, info, false);
    for (let i = 0; i < list.length; i++) {
      const n = list[i];
      if (n.nodeType === 1 || (n.nodeType === 3 && /\S/.test(n.data))) return true;
    }
    return false;
  };
  const geometry = (el, cs, display, ctx, visible, html, name) => {
    const info = ctx.info;
    const pos = cs.position;
    const rect = el.getBoundingClientRect();
    lastRect = rect;
    const w = rect.width;
    const h = rect.height;
    let found = null;
    if (pos === "absolute" || pos === "fixed") {
      if (clippedAway(cs, w, h)) return "offscreen";
      let box = rect;
      if (!(w > 0 && h > 0) && !clipsOverflow(cs)) {
        found = scan(el, info, false);
        if (found.limit) box = null;
        else if (found.sized) {
          box = { left: Math.min(rect.left, found.l), top: Math.min(rect.top, found.t),
            right: Math.max(rect.right, found.r), bottom: Math.max(rect.bottom, found.b) };
        }
      }
      if (box && outside(box, pos === "fixed", el, info)) return "offscreen";
    }
    if (w === 0 && h === 0) {
      const candidate = html && name === "img" ? !isImgPending(el)
        : REPLACED.has(name) || hasContent(el, info);
      if (candidate) {
        if (clipsOverflow(cs) && !/^inline$|^contents$/.test(display) && el.getClientRects().length > 0) {
          return "zero-size";
        }
        if (!found) found = scan(el, info, true);
        if (!found.limit && !found.sized) return "zero-size";
      }
    }
    if (ctx.top && visible && (pos === "fixed" || pos === "sticky") && isOverlay(el, rect, cs, info)) {
      return "overlay";
    }
    return null;
  };
  const unmarked = (ctx) => ({ info: ctx.info, mark: false, geom: false, vis: ctx.vis, top: ctx.top, depth: ctx.depth });
  // What classify() read of the element it looked at last (its box, when geometry ran):
  // boxAttr() writes it as BOX_ATTR for a block of the top document, with a boxAttribute.
  let lastRect = null;
  let lastDisplay = "";
  let lastStyle = null;
  const BLOCKS = new Set(["block", "flex", "grid", "list-item", "table", "flow-root", "inline-block",
    "inline-flex", "inline-grid"]);
  const boxAttr = (ctx, html) => {
    const r = lastRect;
    if (!BOXES || !html || !ctx.top || !r || !BLOCKS.has(lastDisplay) || !(r.width >= 1 && r.height >= 1)) return "";
    const geo = geoOf(ctx.info);
    const font = Math.round(parseFloat(lastStyle.fontSize) || 0);
    return " " + BOX_ATTR + '="' + Math.round(r.left + geo.sx) + "," + Math.round(r.top + geo.sy) + "," +
      Math.round(r.width) + "," + Math.round(r.height) + "," + font + '"';
  };
  // -> {mark, reveal, ctx (for the children)}
  const classify = (el, ctx, html, name) => {
    lastRect = null;
    const cs = ctx.info.win.getComputedStyle(el);
    const display = cs.display;
    lastDisplay = display;
    lastStyle = cs;
    if (display === "none") return { mark: "display", reveal: false, ctx: unmarked(ctx) };
    const visible = cs.visibility === "visible";
    let geom = ctx.geom;
    if (html) {
      const h = el.getAttribute("hidden");
      if (h !== null && h.trim().toLowerCase() === "until-found") geom = false;
    }
    let mark = null;
    if (geom && display !== "contents" && !NO_GEOMETRY.has(name)) {
      mark = geometry(el, cs, display, ctx, visible, html, name);
    }
    if (!mark && html && ctx.top && isHidingModal(el, ctx.info)) mark = "overlay";
    let reveal = false;
    if (!mark) {
      if (!visible && ctx.vis) mark = "visibility";
      else if (visible && !ctx.vis) reveal = true;
    }
    if (mark && mark !== "visibility") return { mark, reveal: false, ctx: unmarked(ctx) };
    let childGeom = geom;
    if (childGeom) {
      // (not cs.contentVisibility: reading it costs ~6us an element in Chromium 156, the rest
      // of the walk ~15us; closed <details> and hidden=until-found are the cases that matter)
      if (html && name === "details" && !el.hasAttribute("open")) childGeom = false;
      else if (html && (name === "select" || name === "datalist" || name === "optgroup")) childGeom = false;
    }
    const childMark = html; // SVG / MathML internals are not looked into
    if (childMark === ctx.mark && childGeom === ctx.geom && visible === ctx.vis) return { mark, reveal, ctx };
    return {
      mark,
      reveal,
      ctx: { info: ctx.info, mark: childMark, geom: childGeom && childMark, vis: visible, top: ctx.top, depth: ctx.depth },
    };
  };

  // ---- serialiser -----------------------------------------------------------------------------
  // UTF-8 size of a JS string: ASCII fast path; a surrogate pair is 2 + 2, other non-ASCII 2 or 3.
  const ASCII_RE = /^[\x00-\x7f]*$/;
  const utf8Size = (s) => {
    if (ASCII_RE.test(s)) return s.length;
    let n = 0;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      n += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c < 0xe000 ? 2 : 3;
    }
    return n;
  };
  // Every string written goes through out.push, which keeps the byte count; `owed` is the size
  // of the closing tags still on the stack, kept back so that closing them cannot pass maxBytes.
  const out = [];
  let owed = 0;
  const write = out.push.bind(out);
  out.push = (s) => {
    stats.bytes += utf8Size(s);
    return write(s);
  };
  const truncate = (by) => {
    stats.truncated = true;
    if (!stats.truncatedBy) stats.truncatedBy = by;
  };
  const fits = (s) => stats.bytes + owed + utf8Size(s) <= MAX_BYTES;
  // The longest prefix of a text that fits in what is left (escaping counted, pairs kept whole).
  const fitText = (s) => {
    let room = MAX_BYTES - stats.bytes - owed;
    let end = 0;
    while (end < s.length && room > 0) {
      const c = s.charCodeAt(end);
      const pair = c >= 0xd800 && c < 0xdc00 && end + 1 < s.length ? 2 : 1;
      const cost = c === 38 ? 5 : c === 60 || c === 62 ? 4 : pair === 2 ? 4 : c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
      if (cost > room) break;
      room -= cost;
      end += pair;
    }
    return s.slice(0, end);
  };
  const nodes = [];
  const ctxs = [];
  const depths = [];
  const seenDocs = new Set();
  const pushChildren = (list, ctx, depth) => {
    for (let i = list.length - 1; i >= 0; i--) {
      nodes.push(list[i]);
      ctxs.push(ctx);
      depths.push(depth);
    }
  };
  const pushClose = (s) => {
    owed += s.length; // closing tags are ASCII
    nodes.push(s);
    ctxs.push(null);
    depths.push(0);
  };
  const markAttrs = (mark, reveal) =>
    mark ? " " + HIDDEN_ATTR + '="' + mark + '"' : reveal ? " " + VISIBLE_ATTR + '="visibility"' : "";
  const isLdJson = (el) => (el.getAttribute("type") || "").trim().toLowerCase() === "application/ld+json";
  const ldJson = (el) => {
    // raw text: "<" only occurs inside JSON strings, where \u003c means the same
    emit('<script type="application/ld+json">' + (el.textContent || "").replace(/</g, "\\u003c") + "</script>");
  };
  // Write an opening tag (and owe its closing tag) only if both fit in maxBytes.
  const emit = (open, close) => {
    if (!fits(close ? open + close : open)) {
      truncate("bytes");
      return false;
    }
    out.push(open);
    if (close) pushClose(close);
    return true;
  };
  const relHas = (el, token) => (" " + (el.getAttribute("rel") || "").toLowerCase().replace(/\s+/g, " ") + " ").includes(" " + token + " ");
  const budget = () => {
    if (stats.truncated) return false;
    if (stats.elements >= MAX_ELEMENTS) {
      truncate("elements");
      return false;
    }
    stats.elements++;
    return true;
  };

  const frame = (el, ctx, depth) => {
    let d = null;
    try {
      d = el.contentDocument;
    } catch (e) {
      d = null;
    }
    if (!d || !d.documentElement || ctx.depth >= MAX_FRAME_DEPTH || seenDocs.has(d)) {
      stats.framesDropped++;
      return;
    }
    if (!budget()) return;
    seenDocs.add(d);
    stats.frames++;
    let mark = null;
    let reveal = false;
    if (ctx.mark) {
      try {
        const r = classify(el, ctx, true, el.localName);
        mark = r.mark;
        reveal = r.reveal;
      } catch (e) {
        stats.errors++;
      }
    }
    if (mark) stats.hidden[mark]++;
    let src = "";
    try {
      const raw = el.getAttribute("src");
      src = raw && raw.trim() ? absUrl(raw, ctx.info.base) : el.hasAttribute("srcdoc") ? "about:srcdoc" : d.URL || "about:blank";
    } catch (e) {
      src = "";
    }
    const info = infoOf(d);
    const root = d.body || d.documentElement;
    let mk = ctx.mark && !mark && !!info.win;
    let vis = true;
    if (mk) {
      try {
        vis = info.win.getComputedStyle(root).visibility === "visible";
      } catch (e) {
        mk = false;
      }
    }
    const fctx = { info, mark: mk, geom: mk && ctx.geom, vis, top: false, depth: ctx.depth + 1 };
    let list = [];
    try {
      list = root.localName === "frameset" ? [root] : kids(root, info, true);
    } catch (e) {
      stats.errors++;
    }
    if (!emit("<div " + FRAME_ATTR + '="' + escAttr(src) + '"' + markAttrs(mark, reveal) + ">", "</div>")) return;
    pushChildren(list, fctx, depth + 1);
  };

  const element = (el, ctx, depth) => {
    const html = el.namespaceURI === XHTML;
    const name = el.localName;
    if (html) {
      if (DROP.has(name)) {
        if (name === "script" && isLdJson(el) && budget()) ldJson(el);
        // where a React-streamed part goes, kept empty: a page whose scripts never moved its
        // parts in (offline, a failed bundle) is read with them in place by the extractor
        else if (name === "template" && STREAM_SLOT.test(el.id)) emit('<template id="' + el.id + '"></template>');
        return;
      }
      if (name === "link" && relHas(el, "stylesheet")) return;
      if (name === "iframe" || name === "frame") {
        if (depth <= MAX_DEPTH) frame(el, ctx, depth);
        return;
      }
    }
    if (depth > MAX_DEPTH) {
      stats.flattened++;
      pushChildren(kids(el, ctx.info, true), ctx, depth);
      return;
    }
    if (!budget()) return;
    let mark = null;
    let reveal = false;
    let cctx = ctx;
    let box = "";
    if (ctx.mark) {
      try {
        const r = classify(el, ctx, html, name);
        mark = r.mark;
        reveal = r.reveal;
        cctx = r.ctx;
        if (!mark) box = boxAttr(ctx, html);
      } catch (e) {
        stats.errors++;
      }
    }
    if (mark) stats.hidden[mark]++;
    let list;
    try {
      list = kids(el, ctx.info, true);
    } catch (e) {
      stats.errors++;
      list = el.childNodes;
    }
    if (html && name === "slot" && !mark && !reveal && isSlot(el)) {
      pushChildren(list, cctx, depth); // a slot is replaced by what it shows
      return;
    }
    let attrs = "";
    try {
      attrs = attributes(el, ctx.info, html, name);
    } catch (e) {
      stats.errors++;
    }
    const tag = html ? RENAME.get(name) || name : name;
    const isVoid = html && VOID.has(name);
    if (!emit("<" + tag + attrs + markAttrs(mark, reveal) + box + ">", isVoid ? "" : "</" + tag + ">")) return;
    if (isVoid) return;
    pushChildren(list, cctx, depth + 1);
  };

  const run = () => {
    while (nodes.length) {
      const node = nodes.pop();
      const ctx = ctxs.pop();
      const depth = depths.pop();
      if (ctx === null) {
        owed -= node.length;
        out.push(node);
        continue;
      }
      if (stats.truncated) continue;
      const t = node.nodeType;
      if (t === 3 || t === 4) {
        let text = escText(node.data);
        if (!fits(text)) {
          text = escText(fitText(node.data));
          truncate("bytes");
        }
        out.push(text);
      } else if (t === 8 && STREAM_MARKS.has(node.data)) {
        // a Suspense boundary's ends: where a part left unplaced replaces its fallback
        if (fits("<!--" + node.data + "-->")) out.push("<!--" + node.data + "-->");
      } else if (t === 1) {
        try {
          element(node, ctx, depth);
        } catch (e) {
          stats.errors++;
        }
      }
    }
  };

  const head = (doc, info) => {
    out.push('<head><meta charset="utf-8">');
    // what is still to come around the head's items: its <base>, </head>, <body></body></html>
    const reserve = 40 + (info.base ? utf8Size(info.base) + 16 : 0);
    owed += reserve;
    let hasBase = false;
    for (const el of doc.head ? Array.from(doc.head.children) : []) {
      try {
        if (el.namespaceURI !== XHTML) continue;
        const name = el.localName;
        if (name === "title") {
          if (!budget()) break;
          emit("<title" + attributes(el, info, true, name) + ">" + escText(el.textContent || "") + "</title>");
        } else if (name === "meta") {
          if (el.hasAttribute("charset")) continue;
          if ((el.getAttribute("http-equiv") || "").trim().toLowerCase() === "content-type") continue;
          if (!budget()) break;
          emit("<meta" + attributes(el, info, true, name) + ">");
        } else if (name === "base") {
          if (hasBase || !el.hasAttribute("href")) continue;
          if (!budget()) break;
          hasBase = true;
          let rest = "";
          for (const a of Array.from(el.attributes)) {
            if (a.name !== "href" && ATTR_NAME_RE.test(a.name)) rest += " " + a.name + '="' + escAttr(a.value) + '"';
          }
          out.push('<base href="' + escAttr(info.base) + '"' + rest + ">");
        } else if (name === "link") {
          if (!relHas(el, "canonical") || !budget()) continue;
          emit("<link" + attributes(el, info, true, name) + ">");
        } else if (name === "script") {
          if (isLdJson(el) && budget()) ldJson(el);
        }
      } catch (e) {
        stats.errors++;
      }
    }
    owed -= reserve;
    if (!hasBase && info.base) out.push('<base href="' + escAttr(info.base) + '">');
    out.push("</head>");
  };

  const finish = (html, doc) => {
    let s = html.replace(/[\u0000-\u0008\u000B\u000E-\u001F\u007F]/g, "").replace(/\u000C/g, " ");
    if (typeof s.toWellFormed === "function") s = s.toWellFormed();
    stats.ms = Math.round(performance.now() - started);
    let title = "";
    try {
      title = doc.title || "";
    } catch (e) {
      title = "";
    }
    return { html: s, baseURI: doc.baseURI, url: doc.URL, title, stats };
  };

  const doc = document;
  try {
    const info = infoOf(doc);
    seenDocs.add(doc);
    const root = doc.documentElement;
    out.push("<!DOCTYPE html>");
    let rootAttrs = "";
    try {
      rootAttrs = root ? attributes(root, info, true, "html") : "";
    } catch (e) {
      stats.errors++;
    }
    if (BOXES) {
      const geo = geoOf(info);
      rootAttrs += " " + VIEWPORT_ATTR + '="' + Math.round(geo.vw) + "," + Math.round(geo.vh) + "," +
        Math.round(geo.maxX - geo.minX) + "," + Math.round(geo.H) + '"';
    }
    stats.elements++;
    out.push("<html" + rootAttrs + ">");
    head(doc, info);
    const body = doc.body;
    let bodyAttrs = "";
    try {
      if (body && body.localName === "body") bodyAttrs = attributes(body, info, true, "body");
    } catch (e) {
      stats.errors++;
    }
    stats.elements++;
    out.push("<body" + bodyAttrs + ">");
    pushClose("</body></html>");
    let vis = true;
    try {
      if (body) vis = info.win.getComputedStyle(body).visibility === "visible";
    } catch (e) {
      vis = true;
    }
    const ctx = { info, mark: true, geom: true, vis, top: true, depth: 0 };
    // whatever scripts put next to <head> and <body> comes after the body's content
    const extra = root ? Array.from(root.children).filter((c) => c !== doc.head && c !== body) : [];
    pushChildren(extra, ctx, 2);
    if (body) pushChildren(body.localName === "frameset" ? [body] : kids(body, info, true), ctx, 2);
    run();
    return finish(out.join(""), doc);
  } catch (e) {
    stats.failed = String((e && e.message) || e);
    let html = "";
    try {
      html = "<!DOCTYPE html>" + doc.documentElement.outerHTML;
    } catch (e2) {
      html = "";
    }
    return finish(html, doc);
  }
}
