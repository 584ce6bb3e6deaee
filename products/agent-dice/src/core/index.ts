// `agent-dice/core`: the host-agnostic engine. No I/O, no process, no built-ins (R2, R3).
export * from './accumulator.ts'
export * from './engine.ts'
export * from './probability.ts'
export * from './render.ts'
export * from './roll.ts'
export type * from './types.ts'
export * from './validate.ts'
