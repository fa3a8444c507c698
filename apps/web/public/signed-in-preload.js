// Someone who may be signed in, on an invoice link: the files its first paint needs are asked for once the
// stylesheet is in, beside the framework instead of after it (see build/signed-in-preload.ts). What to ask
// for, on which paths, and the identity provider's key for a kept sign-in come from the first-load plan
// (src/lib/first-load-plan.ts), which the build writes into this script's tag.
(function () {
  var script = document.currentScript;
  var plan = script.dataset;
  try {
    if (plan.invoicePaths.split(' ').indexOf(location.pathname) < 0) return;
    if (
      !Object.keys(localStorage).some(function (key) {
        return key.indexOf(plan.userKeyPrefix) === 0;
      })
    )
      return;
  } catch {
    // Storage refused (a privacy setting): nothing to go on, and the app loads as it would anyway.
    return;
  }
  function preload() {
    plan.files.split(' ').forEach(function (file) {
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.href = file;
      document.head.appendChild(link);
    });
  }
  var sheet = document.querySelector('link[rel="stylesheet"]');
  if (!sheet || sheet.sheet) preload();
  else sheet.addEventListener('load', preload, { once: true });
})();
