// A writer in its own process (lease.test.ts): opens the store at argv[2], creates session argv[3] as
// its writer, appends the start of a turn, prints "ready" and then holds the lease (heartbeats) until
// it is killed.
import { Session } from '@tack/session'
import { PostgresSessionStore } from '../src/index.ts'

const [url, id, ttl] = process.argv.slice(2) as [string, string, string]
const store = await PostgresSessionStore.open({ url, leaseTimeoutMs: Number(ttl) })
const header = { version: 1 as const, id, createdAt: new Date().toISOString(), cwd: '/work' }
await store.create(header, { writer: true })
const s = new Session({ header })
s.append('turn/start', { turn: 1, trigger: { kind: 'message' } })
s.append('user/message', { content: [{ type: 'text', text: 'still running' }], source: { kind: 'user' } })
s.append('step/start', { turn: 1, step: 1 })
await store.append(id, s.events())
process.stdout.write('ready\n')
setInterval(() => {}, 1 << 30)
