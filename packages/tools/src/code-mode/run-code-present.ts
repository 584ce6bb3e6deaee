// How a Code Mode program looks (presentation.ts): it runs code, its card and progress line show the
// size of the program, and the program itself is worth showing whole.
import type { ToolPresentation } from '../presentation.ts'
import { RUN_CODE } from './sdk.ts'

export const runCodePresentation: ToolPresentation<{ readonly code: string }, 'code'> = {
  kind: 'execute',
  key: ['code'],
  title: ({ code }) => {
    const lines = code.split('\n').length
    return `${RUN_CODE} (${lines} line${lines === 1 ? '' : 's'})`
  },
  call: ({ code }) => [{ kind: 'text', text: code }],
}
