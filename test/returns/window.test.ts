import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Instant, LocalDate, ZoneId } from '@js-joda/core'
import '../../src/core/clock.ts'
import {
  businessDaysLeft,
  deadlineDateTime,
  deadlineText,
  holidaysOf,
  isBusinessDay,
  isWindowOpen,
  lastDayOfWindow,
} from '../../src/returns/window.ts'

const HONDURAS = ZoneId.of('America/Tegucigalpa')
const date = (text: string) => LocalDate.parse(text)

// 2026-09-29 is a Tuesday; 2026-10-03 a Saturday; 2026-11-22 a Sunday; 2026-11-27 a Friday.
const lastDays: Array<{ name: string; arrival: string; days: number; holidays?: string[]; last: string | null }> = [
  {
    name: 'contract §11: Tuesday 29 September, 7 days → Tuesday 6 October',
    arrival: '2026-09-29',
    days: 7,
    last: '2026-10-06',
  },
  {
    name: 'contract §11: the same with Saturday 3 October a holiday → Wednesday 7 October',
    arrival: '2026-09-29',
    days: 7,
    holidays: ['2026-10-03'],
    last: '2026-10-07',
  },
  {
    name: 'contract §11: a Friday arrival counts Fri, Sat, Mon … and closes the next Friday',
    arrival: '2026-11-27',
    days: 7,
    last: '2026-12-04',
  },
  { name: 'a Saturday arrival is day 1 and skips the Sunday', arrival: '2026-11-21', days: 2, last: '2026-11-23' },
  { name: 'a Sunday arrival: day 1 is Monday', arrival: '2026-11-22', days: 1, last: '2026-11-23' },
  { name: 'a Sunday arrival, 7 days: Monday to the next Monday', arrival: '2026-11-22', days: 7, last: '2026-11-30' },
  {
    name: 'a holiday arrival: day 1 is the next business day',
    arrival: '2026-09-15',
    days: 1,
    holidays: ['2026-09-15'],
    last: '2026-09-16',
  },
  {
    name: 'a holiday on a Sunday changes nothing',
    arrival: '2026-11-20',
    days: 3,
    holidays: ['2026-11-22'],
    last: '2026-11-23',
  },
  {
    name: 'a holiday next to a Sunday: both skipped',
    arrival: '2026-11-21',
    days: 2,
    holidays: ['2026-11-23'],
    last: '2026-11-24',
  },
  { name: 'one day: the arrival day itself', arrival: '2026-09-29', days: 1, last: '2026-09-29' },
  {
    name: 'across a year end (Friday 1 January 2027 a holiday)',
    arrival: '2026-12-30',
    days: 3,
    holidays: ['2027-01-01'],
    last: '2027-01-02',
  },
  { name: 'window off (0 days): no last day', arrival: '2026-09-29', days: 0, last: null },
]

for (const row of lastDays) {
  test(`returns window, last day: ${row.name}`, () => {
    const last = lastDayOfWindow(date(row.arrival), row.days, holidaysOf(row.holidays ?? []))
    assert.equal(last?.toString() ?? null, row.last)
  })
}

const left: Array<{ name: string; today: string; last: string; holidays?: string[]; left: number }> = [
  { name: 'the arrival day of a 7-day window', today: '2026-09-29', last: '2026-10-06', left: 7 },
  { name: 'a Sunday inside the window does not count', today: '2026-10-04', last: '2026-10-06', left: 2 },
  {
    name: 'a holiday inside the window does not count',
    today: '2026-10-02',
    last: '2026-10-07',
    holidays: ['2026-10-03'],
    left: 4,
  },
  { name: 'the last day counts itself', today: '2026-10-06', last: '2026-10-06', left: 1 },
  { name: 'the day after the last day: 0', today: '2026-10-07', last: '2026-10-06', left: 0 },
  { name: 'long after: 0', today: '2026-12-01', last: '2026-10-06', left: 0 },
  { name: 'today a Sunday, last day Monday', today: '2026-11-22', last: '2026-11-23', left: 1 },
]

for (const row of left) {
  test(`returns window, business days left: ${row.name}`, () => {
    assert.equal(businessDaysLeft(date(row.today), date(row.last), holidaysOf(row.holidays ?? [])), row.left)
  })
}

const open: Array<{ name: string; now: string; last: string; open: boolean }> = [
  {
    name: 'the last second of the last day (23:59:59 in Honduras) is open',
    now: '2026-10-07T05:59:59Z',
    last: '2026-10-06',
    open: true,
  },
  { name: 'its last millisecond too', now: '2026-10-07T05:59:59.999Z', last: '2026-10-06', open: true },
  { name: 'midnight after the last day is closed', now: '2026-10-07T06:00:00Z', last: '2026-10-06', open: false },
  {
    name: 'the last day at 00:00 in Honduras (06:00 UTC) is open',
    now: '2026-10-06T06:00:00Z',
    last: '2026-10-06',
    open: true,
  },
  {
    name: 'the evening before in UTC terms (05:59 UTC) is the day before in Honduras: open',
    now: '2026-10-06T05:59:00Z',
    last: '2026-10-06',
    open: true,
  },
]

for (const row of open) {
  test(`returns window, open: ${row.name}`, () => {
    assert.equal(isWindowOpen(Instant.parse(row.now), date(row.last), HONDURAS), row.open)
  })
}

test('returns window: it closes at 23:59:59 Honduras time of the last day, written both ways', () => {
  assert.equal(deadlineDateTime(date('2026-10-06')), '2026-10-06 23:59:59')
  assert.equal(deadlineText(date('2026-10-06')), '06/10/2026 a las 23:59:59')
})

test('returns window: Monday to Saturday are business days, Sunday and holidays are not', () => {
  const holidays = holidaysOf(['2026-09-15'])
  const week = ['2026-09-14', '2026-09-15', '2026-09-16', '2026-09-17', '2026-09-18', '2026-09-19', '2026-09-20']
  assert.deepEqual(
    week.map((day) => isBusinessDay(date(day), holidays)),
    [true, false, true, true, true, true, false],
  )
})
