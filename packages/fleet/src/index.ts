// @tack/fleet: jobs on pg-boss, the worker and the web view (issue 28 items 2 and 3, 95-fleet.md F2–F5).
export {}
