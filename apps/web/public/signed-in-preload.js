// Someone who may be signed in, on an invoice link: the files its first paint needs are asked for once the
// stylesheet is in, beside the framework instead of after it (see build/signed-in-preload.ts).
(function () {
  var script = document.currentScript;
  try {
    if (!/^\/(invoice)?$/.test(location.pathname)) return;
    if (
      !Object.keys(localStorage).some(function (key) {
        return key.indexOf('firebase:authUser:') === 0;
      })
    )
      return;
  } catch {
    // Storage refused (a privacy setting): nothing to go on, and the app loads as it would anyway.
    return;
  }
  function preload() {
    script.dataset.files.split(' ').forEach(function (file) {
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
