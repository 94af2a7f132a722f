// a TAP helper for the JavaScript suites
'use strict';
let n = 0;
function check(ok, description) {
  n += 1;
  console.log(`${ok ? 'ok' : 'not ok'} ${n} - ${description}`);
}
function done() {
  console.log(`1..${n}`);
}
function fail(e) {
  check(false, String(e && e.stack ? e.stack : e).split('\n').join('\n# '));
  done();
  process.exit(1);
}
async function sqlstate(promise) {
  try {
    await promise;
    return 'no error';
  } catch (e) {
    return e.code;
  }
}
module.exports = { check, done, fail, sqlstate };
