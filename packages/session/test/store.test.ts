import { MemorySessionStore } from '../src/index.ts'
import { describeSessionStore } from '../src/testing/index.ts'

describeSessionStore('MemorySessionStore', () => new MemorySessionStore())
