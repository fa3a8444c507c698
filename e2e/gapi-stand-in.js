/* global window, document */
// A stand-in for Google's iframe library (https://apis.google.com/js/api.js), served by the browser tests
// in its place: the machines that run them reach no internet, and the Firebase SDK's pop-up sign-in and the
// Auth emulator's helper frame both load it. It does the one thing they use it for: calls between a page
// and a frame it opened, by postMessage, each side answering once the other has registered the call.
// Everything else in the sign-in (the SDK, the emulator's provider page and helper frame) is the real one.
(function () {
  'use strict';
  var MARK = '__portalGapiStandIn';

  function endpoint(target, targetWindow) {
    var handlers = {};
    var waiting = {};
    var callbacks = {};
    var counter = 0;
    function post(message) {
      message[MARK] = true;
      targetWindow().postMessage(message, '*');
    }
    function answer(message) {
      var handler = handlers[message.name];
      if (!handler) {
        (waiting[message.name] = waiting[message.name] || []).push(message);
        return;
      }
      Promise.resolve(handler(message.data)).then(function (result) {
        post({ kind: 'reply', id: message.id, result: [result] });
      });
    }
    window.addEventListener('message', function (event) {
      var message = event.data;
      if (!message || !message[MARK] || event.source !== targetWindow()) return;
      if (message.kind === 'call') answer(message);
      else if (message.kind === 'reply' && callbacks[message.id]) {
        var callback = callbacks[message.id];
        delete callbacks[message.id];
        callback(message.result);
      }
    });
    return {
      register: function (name, handler) {
        handlers[name] = handler;
        var queued = waiting[name] || [];
        delete waiting[name];
        queued.forEach(answer);
      },
      send: function (name, data, callback) {
        var id = target + ':' + ++counter;
        if (callback) callbacks[id] = callback;
        post({ kind: 'call', id: id, name: name, data: data });
      },
    };
  }

  var parentSide = null;
  function parentIframe() {
    if (!parentSide) {
      parentSide = endpoint('child', function () {
        return window.parent;
      });
      parentSide.register('__ping', function () {
        return 'pong';
      });
    }
    return parentSide;
  }
  // A frame answers pings as soon as the library has loaded in it, as Google's does.
  if (window.parent !== window) parentIframe();

  var context = {
    getParentIframe: parentIframe,
    open: function (options, onOpened) {
      var element = document.createElement('iframe');
      var attributes = options.attributes || {};
      Object.keys(attributes.style || {}).forEach(function (key) {
        element.style[key] = attributes.style[key];
      });
      if (attributes['aria-hidden']) element.setAttribute('aria-hidden', attributes['aria-hidden']);
      if (attributes.tabindex) element.setAttribute('tabindex', attributes.tabindex);
      element.src = options.url;
      (options.where || document.body).appendChild(element);
      var side = endpoint('parent', function () {
        return element.contentWindow;
      });
      var frame = {
        register: side.register,
        send: side.send,
        restyle: function () {
          return Promise.resolve();
        },
        ping: function (callback) {
          return new Promise(function (resolve) {
            var answered = false;
            var timer = setInterval(function () {
              side.send('__ping', {}, function () {
                if (answered) return;
                answered = true;
                clearInterval(timer);
                if (callback) callback();
                resolve();
              });
            }, 100);
          });
        },
      };
      return Promise.resolve(onOpened ? onOpened(frame) : frame);
    },
  };

  window.gapi = window.gapi || {};
  window.gapi.iframes = {
    CROSS_ORIGIN_IFRAMES_FILTER: function () {
      return true;
    },
    Iframe: function () {},
    getContext: function () {
      return context;
    },
  };
  window.gapi.load = function (_modules, options) {
    setTimeout(function () {
      var callback = typeof options === 'function' ? options : options && options.callback;
      if (callback) callback();
    }, 0);
  };

  var script = document.currentScript;
  var onload = script && new URL(script.src).searchParams.get('onload');
  setTimeout(function () {
    if (onload && typeof window[onload] === 'function') window[onload]();
    else if (typeof window.gapi_onload === 'function') window.gapi_onload();
  }, 0);
})();
