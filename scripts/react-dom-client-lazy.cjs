'use strict';
/**
 * `react-dom/client` for the bundle (rollup.config.mjs points every import of it here but this file's
 * own): react-dom's start-up runs once the bundle has evaluated, not during its evaluation. See
 * `lazyReactDomClient` there for why.
 */
let client;
function load() {
  if (!client) client = require('react-dom/client');
  return client;
}

exports.createRoot = function createRoot(container, options) {
  return load().createRoot(container, options);
};

// A microtask runs once the whole bundle has evaluated, before any other task: the elements' roots
// mount later (their first screen's data comes over the network), and react-dom is ready by then.
queueMicrotask(load);
