import assert from 'node:assert/strict'
import { test } from 'node:test'
import { formatLocalDateTime, localDateOf, ManualClock, today, toStoredInstant } from '../../src/core/clock.ts'

const edges: Array<{ name: string; instant: string; today: string }> = [
  {
    name: 'UTC already tomorrow, Honduras still today (23:59:59)',
    instant: '2026-11-23T05:59:59.999Z',
    today: '2026-11-22',
  },
  { name: 'Honduras midnight', instant: '2026-11-23T06:00:00.000Z', today: '2026-11-23' },
  {
    name: 'UTC midnight is 18:00 of the day before in Honduras',
    instant: '2026-11-23T00:00:00.000Z',
    today: '2026-11-22',
  },
  { name: 'new year edge', instant: '2027-01-01T05:59:59.000Z', today: '2026-12-31' },
  { name: 'leap day', instant: '2028-02-29T12:00:00.000Z', today: '2028-02-29' },
  {
    name: 'no daylight saving in Honduras (April, UTC-6 still)',
    instant: '2026-04-15T05:30:00.000Z',
    today: '2026-04-14',
  },
]

for (const edge of edges) {
  test(`clock: ${edge.name}`, () => {
    assert.equal(today(new ManualClock(edge.instant)).toString(), edge.today)
  })
}

test('clock: the manual clock moves only when told', () => {
  const clock = new ManualClock('2026-11-23T05:59:59.000Z')
  assert.equal(today(clock).toString(), '2026-11-22')
  clock.advance(1000)
  assert.equal(today(clock).toString(), '2026-11-23')
  clock.set('2026-11-22T16:00:00Z')
  assert.equal(clock.now().toString(), '2026-11-22T16:00:00Z')
})

test('clock: stored instants are shown in the configured zone', () => {
  const clock = new ManualClock('2026-11-22T16:00:00Z')
  assert.equal(formatLocalDateTime(clock, '2026-11-22T05:30:00.000Z'), '2026-11-21 23:30:00')
  assert.equal(localDateOf(clock, '2026-11-22T05:30:00.000Z').toString(), '2026-11-21')
  const utc = new ManualClock('2026-11-22T16:00:00Z', 'UTC')
  assert.equal(formatLocalDateTime(utc, '2026-11-22T05:30:00.000Z'), '2026-11-22 05:30:00')
})

test('clock: stored instants have a fixed width, so their text sorts like time', () => {
  const clock = new ManualClock('2026-11-22T16:00:00Z')
  const whole = toStoredInstant(clock.now())
  clock.advance(500)
  const half = toStoredInstant(clock.now())
  assert.deepEqual([whole, half], ['2026-11-22T16:00:00.000Z', '2026-11-22T16:00:00.500Z'])
  assert.ok(whole < half)
})
