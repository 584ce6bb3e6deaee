// The help text lives in plain JavaScript so `tack --help` imports nothing else.
export const HELP = `tack — an open, hackable coding agent

Usage:
  tack run "task"            headless: one turn, prints the final answer (also: tack -p "task"; "-" reads stdin)
  cat log | tack run "task"  piped stdin is context for the task; with no task, stdin is the task
  tack sessions list         list stored sessions
  tack sessions show <id>    print a session's log
  tack sessions export <id> [--format jsonl|claude-transcript|markdown]
  tack sessions fork <id> [--at SEQ]
  tack sessions rm <id>
  tack hooks list            Claude Code and Codex hooks found, their sources and whether they run
  tack hooks trust [--project]
  tack trust [DIR]           trust a workspace: its .tack/config.yml, project hooks and .tack/plugins/ take effect
  tack trust --list | --revoke [DIR]
  tack dice …                the agent-dice CLI on tack's data folder
  tack doctor                check Node, config files, models and keys, the session store, hooks
  tack --version | --help

Common flags:
  --model provider/model     deepseek/…, openai/…, anthropic/…, local/… or a configured endpoint
  --base-url URL             an OpenAI-compatible server (Ollama, llama.cpp, vLLM, …)
  --permission-mode MODE     ask | workspace-write (headless default) | read-only | yolo
  --tools-mode MODE          native | code | both
  --cwd DIR                  workspace folder (default: the current folder)
  --config FILE              an extra config file (YAML), layered after ~/.tack and .tack
  --profile NAME             apply a named profile from the config files
  --no-session               keep the session in memory only
  --trust                    trust the workspace for this run only (CI); see tack trust
  --allow TOOL[:pattern]     (run, repeatable) allow matching calls: bash:"git status", read:/docs/**
  --deny TOOL[:pattern]      (run, repeatable) deny matching calls: bash:rm, write, *:secrets/**
  --json                     (run) stream every session event as one JSON line, then a result line
  -v, --verbose              diagnostics on stderr

Environment:
  DEEPSEEK_API_KEY, OPENAI_API_KEY, ANTHROPIC_API_KEY   provider keys (also read from $TACK_HOME/.env)
  TACK_HOME                  tack's folder (default ~/.tack): config.yml, sessions.db, transcripts, plugins/
  TACK_TRUST=1               trust the workspace for this run only (CI)
  TACK_DEV=1                 turn on the log invariant checks
  NO_COLOR=1                 no colour in tack run's progress on a terminal
`
