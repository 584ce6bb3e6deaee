// Setup of the shuffled end-to-end run (vitest.shuffled.config.ts): every tack the test files start —
// spawned or booted in-process — loads its plugins in an order shuffled by a seed taken from the test
// file's name (apps/tack/src/catalog-order.ts), so the files see different orders, each the same every run.
import { basename } from 'node:path'
import { expect } from 'vitest'
import { SHUFFLE_VARIABLE } from '../../apps/tack/src/catalog-order.ts'

const file = expect.getState().testPath
if (!file) throw new Error('shuffle-setup: vitest gave no test file path')
let seed = 7
for (const char of basename(file)) seed = (Math.imul(seed, 31) + char.charCodeAt(0)) >>> 0
process.env[SHUFFLE_VARIABLE] = String(seed)
