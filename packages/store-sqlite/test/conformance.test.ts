import { describeSessionStore } from '@tack/session/testing'
import { SqliteSessionStore } from '../src/index.ts'
import { tempDb } from './helpers.ts'

// SL-26: the shared conformance suite, against a real file per test, in each journal mode.
describeSessionStore('sqlite (wal)', () => SqliteSessionStore.open({ path: tempDb() }))
describeSessionStore('sqlite (delete)', () =>
  SqliteSessionStore.open({ path: tempDb(), journalMode: 'delete' }),
)
