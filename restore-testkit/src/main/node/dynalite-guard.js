// Preloaded into dynalite (node --require): dynalite 4.0.0 rethrows any error of a request stream
// (index.js: req.on('error', function (err) { throw err })), so one client that dies in the middle of
// sending a request (a writer killed by SIGKILL, a Ctrl-C'd CLI) ends the whole server with
// "Error: aborted" (ECONNRESET). Only that request is lost, so ignore exactly that error and let
// every other uncaught error end the process as before.
process.on('uncaughtException', function (err) {
  if (err && err.code === 'ECONNRESET' && err.message === 'aborted') {
    console.error('[dynalite-guard] a client closed its connection in the middle of a request; ignored');
    return;
  }
  console.error(err);
  process.exit(1);
});

// dynalite 4.0.0 compares values in conditions with `==`, element by element for arrays, so a list
// or a map never equals anything (objects compare by identity), where DynamoDB documents EQ "for
// all data types, including lists and maps". Strict undos write on the condition that every
// attribute still equals its last image, lists and maps included: give dynalite's valsEqual
// DynamoDB's deep equality (lists in order, maps by name, sets in any order) as its source loads.
var Module = require('module');
var path = require('path');
var compile = Module.prototype._compile;
var DB_INDEX = path.join('dynalite', 'db', 'index.js');
var ORIGINAL = 'function valsEqual (val1, val2) {';
Module.prototype._compile = function (content, filename) {
  if (filename.endsWith(DB_INDEX)) {
    if (content.indexOf(ORIGINAL) < 0) {
      throw new Error('[dynalite-guard] ' + filename + ' has no valsEqual to patch; check the dynalite version');
    }
    content = content.replace(ORIGINAL, ORIGINAL + '\n  return require(' + JSON.stringify(__filename)
      + ').deepValsEqual(val1, val2)\n');
  }
  return compile.call(this, content, filename);
};

function attrEqual(a, b) {
  var ta = Object.keys(a)[0];
  var tb = Object.keys(b)[0];
  return ta === tb && deepValsEqual(a[ta], b[tb]);
}

function deepValsEqual(v1, v2) {
  if (Array.isArray(v1) && Array.isArray(v2)) {
    if (v1.length !== v2.length) return false;
    if (v1.some(function (x) { return x !== null && typeof x === 'object'; })) {
      return v1.every(function (x, i) { return v2[i] !== null && typeof v2[i] === 'object' && attrEqual(x, v2[i]); });
    }
    return v1.every(function (x) { return v2.indexOf(x) >= 0; });
  }
  if (v1 !== null && v2 !== null && typeof v1 === 'object' && typeof v2 === 'object') {
    var k1 = Object.keys(v1);
    var k2 = Object.keys(v2);
    return k1.length === k2.length && k1.every(function (k) {
      return Object.prototype.hasOwnProperty.call(v2, k) && attrEqual(v1[k], v2[k]);
    });
  }
  return v1 == v2;
}

module.exports = { deepValsEqual: deepValsEqual };
