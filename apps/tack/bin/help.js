// The help text lives in plain JavaScript so `tack --help` imports nothing else.
export const HELP = `tack — an open, hackable coding agent

Usage:
  tack                       the interactive terminal UI in this folder, a new session
  tack -c                    continue this folder's most recent session in the UI (--continue)
  tack -r [ID]               resume session ID in the UI; without ID, pick one of this folder's (--resume)
  tack run "task"            headless: one turn, prints the final answer (also: tack -p "task"; "-" reads stdin)
  tack run -c "task"         continue this workspace's most recent session (--continue)
  tack run -r ID "task"      continue session ID, a fork too; a unique prefix of the id is enough (--resume)
  cat log | tack run "task"  piped stdin is context for the task; with no task, stdin is the task
  tack sessions list [--json]  sessions, newest first: first prompt, workspace, model, turns, last activity
  tack sessions show <id>    print a session's log (every <id> may be a unique prefix)
  tack sessions export <id> [--format jsonl|claude-transcript|markdown]
  tack sessions fork <id> [--at SEQ]
  tack sessions rm <id>
  tack sessions import FILE  a jsonl export back into the store ("-" reads stdin)
  tack rewind [--to TURN] [--files-only | --conversation-only] [-r ID]
                             the latest session's turns with what each changed; --to: the files as they were
                             before TURN and the conversation forked there (also /rewind in the UI and ACP)
  tack hooks list [--json]   Claude Code and Codex hooks found, their sources and whether they run
  tack hooks trust [--project]
  tack mods list             Claude Code mods a run loads: the events and $ nouns each uses, whether tack has them
  tack mods check DIR        whether a mod folder loads in tack, or exactly what it is missing
  tack mods capabilities     the mod events and $ nouns tack supports (JSON)
  tack mcp list [--json]     MCP servers: source (tack config, .mcp.json, Codex), type, approval state, and
                             whether each connects, with its tools (--no-connect: start none)
  tack mcp get NAME          one server's definition (env and header values hidden)
  tack mcp add NAME [--scope user|project] [-e K=V] -- CMD [ARGS…]   (--transport http|sse NAME URL [--header "K: V"])
  tack mcp remove NAME [--scope user|project] · tack mcp approve NAME   (a project server, as now defined)
  tack skills list [--json]  Agent Skills and prompt commands found (tack, Claude Code, ~/.agents, Codex folders),
                             the shadowed ones and warnings; tack skills show NAME prints one (nothing runs)
  tack trust [DIR]           trust a workspace: its .tack/config.yml, project hooks and .tack/plugins/ take effect
  tack trust --list | --revoke [DIR]
  tack acp                   serve the Agent Client Protocol on stdio, for editors (Zed, any ACP client)
  tack serve [--port N] [--host ADDRESS]
                             a web view of the sessions (live), on 127.0.0.1:7433 by default; any other
                             address requires a token (tack serve --help)
  tack dice …                the agent-dice CLI on tack's data folder
  tack state enable          turn agent-state on: every session from now on records what it is doing
                             (tack state disable turns it off)
  tack state status|watch|tmux  what each session is doing (agent-state's readers on tack's data folder)
  tack jobs submit "task" --repo URL|DIR [--ref R] [--model M] [--max-cost USD] [--label k=v]…  (or --from tasks.jsonl)
                             queue jobs in the shared PostgreSQL (TACK_STORE_URL or plugins.store.url)
  tack jobs list|show|logs|cancel|retry [ID]   jobs from any machine with the URL (tack jobs --help)
  tack worker [--concurrency N] [--labels k=v,…]   run jobs as headless sessions in fresh clones
  tack doctor                check Node, config files, models and keys, the session store, hooks
  tack --version | --help

Common flags:
  --model provider/model     deepseek/…, openai/…, anthropic/…, local/… or a configured endpoint;
                             with -c/-r: switches the continued session's model
  --effort LEVEL             reasoning effort: low | medium | high, where the model takes one (/effort switches it)
  --base-url URL             an OpenAI-compatible server (Ollama, llama.cpp, vLLM, …)
  --permission-mode MODE     ask (interactive default) | workspace-write (headless default) | read-only | yolo
  --tools-mode MODE          native (default), code (the model writes TypeScript against the tools) or both;
                             also TACK_TOOLS_MODE
  --cwd DIR                  workspace folder (default: the current folder)
  --config FILE              an extra config file (YAML), layered after $TACK_HOME/config.yml and .tack/config.yml
  --profile NAME             apply a named profile from the config files
  --no-session               keep the session in memory only
  --trust                    trust the workspace for this run only (CI); see tack trust
  --allow TOOL[:pattern]     (run, repeatable) allow matching calls: bash:"git status", read:/docs/**
  --deny TOOL[:pattern]      (run, repeatable) deny matching calls: bash:rm, write, *:secrets/**
  --image PATH               (run, repeatable) attach a PNG, JPEG, GIF or WebP file to the prompt
  --sandbox-writable PATH    (tack, run, acp; repeatable) a folder sandboxed bash may write: ~/.cache, .git
  --mod DIR                  (run, mods list, doctor; repeatable) load a Claude Code mod folder for this run
  --json                     run: a start line, every session event, a result line (JSON, versioned);
                             sessions list, hooks list: JSON
  -c, --continue             (tack, run) continue this workspace's most recent session
  -r, --resume ID            (tack, run) continue session ID (a unique prefix is enough); tack -r alone picks
  -p, --print TASK           same as tack run TASK
  --format FORMAT            (sessions export) jsonl | claude-transcript | markdown
  --at SEQ                   (sessions fork) fork before event SEQ (a turn boundary)
  --project                  (hooks trust) also trust the workspace, as tack trust does
  --list, --revoke           (trust) list trusted folders / revoke one
  --force                    (trust) trust a folder that is / or holds your home or TACK_HOME
  -v, --verbose              diagnostics on stderr

Environment:
  DEEPSEEK_API_KEY, OPENAI_API_KEY, ANTHROPIC_API_KEY   provider keys (also read from $TACK_HOME/.env)
  TACK_HOME                  tack's folder (default ~/.tack): config.yml, sessions.db, transcripts, plugins/, mods/
  TACK_TRUST=1               trust the workspace for this run only (CI)
  TACK_DEV=1                 turn on the log invariant checks
  NO_COLOR=1                 no colour on a terminal (tack run's progress, the interactive UI)
`

// `tack sessions --help` (and `tack sessions` alone, or with an unknown subcommand): the one command's
// help, with what each subcommand does, instead of the whole list above.
export const SESSIONS_HELP = `tack sessions — the sessions in the store ($TACK_HOME/sessions.db)

Usage:
  tack sessions list [--json]      every session, newest activity first: id, last activity, turns, model,
                                   workspace, fork/subagent origin and the first prompt (cut)
  tack sessions show <id>          one line per event of the session's log, with its sequence number
  tack sessions export <id> [--format jsonl|claude-transcript|markdown]
                                   print the session (jsonl, the default, is what import reads back)
  tack sessions import FILE        a jsonl export back into the store ("-" reads stdin)
  tack sessions fork <id> [--at SEQ]
                                   a new session holding the log up to SEQ (a turn boundary: the seq of a
                                   turn's first event, or the end); without --at, the whole log; prints its id
  tack sessions rm <id>            delete a session, its events and its bash spill files

Every <id> may be a unique prefix of a session id. Continue a session with tack -r <id> (the interactive
screen) or tack run -r <id> "task"; tack -c / tack run -c continue this folder's latest one.

Flags: --json (list), --format (export), --at (fork), and the common ones of tack --help
(--config, --profile, --cwd, -v).
`
