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
