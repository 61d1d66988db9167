// Runs Mozilla's Readability.js inside the page. Composed by renderer/browser/readability.py as
//   (options) => { <Readability.js> <Readability-readerable.js> return (<this>)(options, Readability, isProbablyReaderable); }
// so it needs no <script> tag and works under any Content-Security-Policy.
//
// options.html: the flattened snapshot to read (our mode), or null to read a clone of the live
//   document exactly as Firefox Reader View does (fidelity mode).
// options.removeHidden / options.removeComments: filter the clone first. Readability.js strips
//   classes in its post-processing, so such filtering can only happen on its input.
(options, Readability, isProbablyReaderable) => {
  const started = performance.now();
  let doc;
  if (options.html == null) {
    doc = document.cloneNode(true);
  } else {
    doc = new DOMParser().parseFromString(options.html, "text/html");
  }
  // Firefox hands Readability.js a copy re-parsed by JSDOMParser, which drops comments; with
  // them, "a<!-- -->b" inside a <div> is cut into separate paragraphs.
  if (options.dropComments !== false) {
    const walker = doc.createTreeWalker(doc, NodeFilter.SHOW_COMMENT);
    const comments = [];
    while (walker.nextNode()) comments.push(walker.currentNode);
    for (const comment of comments) comment.remove();
  }
  let removedHidden = 0;
  let removedComments = 0;
  if (options.removeHidden) {
    const marks = "[" + options.hiddenAttribute + "], [" + options.feedAttribute + "]";
    for (const el of doc.querySelectorAll(marks)) {
      // visibility:hidden can be undone by a descendant: keep such a subtree whole.
      const undone = el.getAttribute(options.hiddenAttribute) === "visibility" &&
        el.querySelector("[" + options.visibleAttribute + "]");
      if (el.isConnected && !undone && el !== doc.body && el !== doc.documentElement) {
        el.remove();
        removedHidden++;
      }
    }
  }
  if (options.removeComments) {
    const spared = new Set(["HTML", "BODY", "ARTICLE", "MAIN"]);
    for (const el of doc.querySelectorAll("[class*=comment i], [id*=comment i]")) {
      if (el.isConnected && !spared.has(el.tagName)) {
        el.remove();
        removedComments++;
      }
    }
  }
  // Utility CSS and page builders name a text's boxes "overflow-hidden", "elementor-widget":
  // Readability.js's negative class weight ("hidden", "scroll", "widget") drops them whole.
  // Our mode clears those names from its copy (extractor/_classnames.py has the list).
  let clearedClasses = 0;
  if (options.builderClasses) {
    const builder = new RegExp("^(?:" + options.builderClasses + ")$", "i");
    for (const el of doc.querySelectorAll("[class]")) {
      const names = el.getAttribute("class").split(/\s+/).filter(Boolean);
      const kept = names.filter((name) => !builder.test(name));
      if (kept.length !== names.length) {
        el.setAttribute("class", kept.join(" "));
        clearedClasses++;
      }
    }
  }
  const readerable = isProbablyReaderable(doc);
  const readabilityOptions = { charThreshold: options.charThreshold };
  if (options.classesToPreserve) readabilityOptions.classesToPreserve = options.classesToPreserve;
  let article = null;
  let error = null;
  try {
    article = new Readability(doc, readabilityOptions).parse();
  } catch (e) {
    error = String(e && e.message ? e.message : e);
  }
  const result = {
    readerable,
    error,
    removedHidden,
    removedComments,
    clearedClasses,
    ms: performance.now() - started,
  };
  if (article) {
    Object.assign(result, {
      content: article.content,
      title: article.title,
      byline: article.byline,
      excerpt: article.excerpt,
      siteName: article.siteName,
      lang: article.lang,
      dir: article.dir,
      publishedTime: article.publishedTime,
      textContent: article.textContent,
      length: article.length,
    });
  }
  return result;
}
