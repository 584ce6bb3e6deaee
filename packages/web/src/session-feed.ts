// One session as the web view shows it: the session's log read from the store and applied, event by
// event, to the TUI's own projection (`SessionView`, packages/tui/src/view-model.ts) — the same entries,
// tool cards, applied diffs, todos, usage and cost the terminal draws, never a second reading of the log.
// Each read applies only the events past the last one applied, so a watched session costs one store read
// per poll and one projection step per new event.
import { type SessionStore, summarizeLog } from '@tack/session'
import type { Presenter } from '@tack/tools'
import { type Pricing, SessionView, type ViewLimits } from '@tack/tui/view-model'

/** What the projection needs besides the log: how calls look (a tool registry) and prices. */
export interface Projection {
  readonly presenter: Presenter
  readonly pricing: Pricing
  readonly limits?: ViewLimits
}

/** A session's page: its header and the projection's state, as JSON. */
export interface SessionPage {
  readonly id: string
  readonly cwd: string
  readonly createdAt: string
  readonly parentSession?: string
  /** Set on forks: how many of the parent's events it began with (a subagent's session has none). */
  readonly seedLength?: number
  readonly entries: SessionView['entries']
  readonly todos: SessionView['todos']
  readonly status: SessionView['status']
}

export class SessionFeed {
  readonly #store: SessionStore
  readonly #id: string
  readonly #projection: Projection
  #view: SessionView | undefined
  #header: Omit<SessionPage, 'id' | 'entries' | 'todos' | 'status'> | undefined
  /** The seq of the next event to apply. */
  #next = 0

  constructor(store: SessionStore, id: string, projection: Projection) {
    this.#store = store
    this.#id = id
    this.#projection = projection
  }

  /** Reads the log and applies what is new; true when the page changed (always on the first read). */
  async refresh(): Promise<boolean> {
    // A reader: never the writer's lease, so a session running elsewhere is shown as it is.
    const { header, events } = await this.#store.load(this.#id)
    let view = this.#view
    const first = view === undefined
    if (view === undefined) {
      const model = summarizeLog(events).model ?? '(no model yet)'
      const { presenter, pricing, limits } = this.#projection
      view = new SessionView({ model, permissionMode: '', sessionId: this.#id }, pricing, presenter, limits)
      this.#view = view
      const { cwd, createdAt, parentSession, seedLength } = header
      this.#header = { cwd, createdAt, parentSession, seedLength }
    }
    const before = view.version
    for (const event of events) {
      if (event.seq < this.#next) continue
      view.apply(event)
      this.#next = event.seq + 1
    }
    return first || view.version !== before
  }

  page(): SessionPage {
    const view = this.#view
    const header = this.#header
    if (!view || !header) throw new Error('SessionFeed.page() before refresh()')
    return { id: this.#id, ...header, entries: view.entries, todos: view.todos, status: view.status }
  }
}
