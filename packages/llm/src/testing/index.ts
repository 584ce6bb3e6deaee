// @tack/llm/testing: the loopback scripted model server (real HTTP on 127.0.0.1) for tests and
// benchmarks that exercise the real provider code over the wire.
export {
  type LoopbackServer,
  type LoopbackServerOptions,
  startLoopbackServer,
} from './loopback-server.ts'
export {
  type LoggedRequest,
  type LoopbackAnswer,
  type LoopbackEntry,
  type LoopbackFault,
  loadLoopbackScript,
  type WireProtocolName,
} from './loopback-script.ts'
