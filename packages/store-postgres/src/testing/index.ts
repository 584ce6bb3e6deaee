// @tack/store-postgres/testing: a throw-away PostgreSQL cluster for tests and benchmarks (95-fleet.md:
// "no mock of Postgres").
export { postgresBinDir, runSql, startThrowawayCluster, type ThrowawayCluster } from './cluster.ts'
