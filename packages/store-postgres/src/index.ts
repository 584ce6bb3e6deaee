// @tack/store-postgres: the SessionStore on PostgreSQL (issue 28 item 1, 95-fleet.md F1). Filled in by
// the store's own change; the testing export (a throw-away cluster) is what the fleet's tests share.
export {}
