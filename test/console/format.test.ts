import assert from 'node:assert/strict'
import { test } from 'node:test'
import { count, date, dateTime, hondurasDate, money, moneyField, parseDayMonthYear, parseMoney, quantity, time } from '../../console/format.ts'

/** The console's Honduran formats, one row per case. */
const ROWS: Array<[string, () => unknown, unknown]> = [
  ['money: thousands and cents', () => money(1087.92), 'L 1,087.92'],
  ['money: millions', () => money(1234567.5), 'L 1,234,567.50'],
  ['money: zero', () => money(0), 'L 0.00'],
  ['money: rounds half away from zero', () => money(0.125), 'L 0.13'],
  ['money: a binary-unfriendly half cent', () => money(1.005), 'L 1.01'],
  ['money: negative', () => money(-5), '-L 5.00'],
  ['money: negative that rounds to zero has no sign', () => money(-0.001), 'L 0.00'],
  ['quantity: whole', () => quantity(1250), '1,250'],
  ['quantity: thousandths, trailing zeros dropped', () => quantity(2.5), '2.5'],
  ['quantity: at most three decimals', () => quantity(1.23456), '1.235'],
  ['date: ISO date', () => date('2026-11-22'), '22/11/2026'],
  ['date: of a date-time', () => date('2026-11-22 14:05:09'), '22/11/2026'],
  ['date: absent', () => date(null), '—'],
  ['dateTime: 24-hour', () => dateTime('2026-11-22 14:05:09'), '22/11/2026 14:05'],
  ['dateTime: with T', () => dateTime('2026-11-22T09:30:00'), '22/11/2026 09:30'],
  ['dateTime: a date alone', () => dateTime('2026-11-22'), '22/11/2026'],
  ['time', () => time('23:59:59'), '23:59'],
  ['count: singular', () => count(1, 'día'), '1 día'],
  ['count: plural', () => count(3, 'día hábil', 'días hábiles'), '3 días hábiles'],
  ['hondurasDate: 05:59 UTC is still yesterday in Honduras', () => hondurasDate(new Date('2026-11-23T05:59:59Z')), '2026-11-22'],
  ['hondurasDate: 06:00 UTC is today', () => hondurasDate(new Date('2026-11-23T06:00:00Z')), '2026-11-23'],
  ['parseMoney: with thousands separators', () => parseMoney('1,234.50'), 1234.5],
  ['parseMoney: with the currency', () => parseMoney(' L 80 '), 80],
  ['parseMoney: one decimal', () => parseMoney('0.3'), 0.3],
  ['parseMoney: three decimals is not an amount', () => parseMoney('10.005'), null],
  ['parseMoney: a decimal comma is not an amount', () => parseMoney('10,5'), null],
  ['parseMoney: text', () => parseMoney('diez'), null],
  ['moneyField: two decimals, no separators', () => moneyField(1234.5), '1234.50'],
  ['moneyField: a float sum is written in cents', () => moneyField(0.1 + 0.2), '0.30'],
  ['parseDayMonthYear: dd/mm/yyyy', () => parseDayMonthYear('22/11/2026'), '2026-11-22'],
  ['parseDayMonthYear: d/m/yyyy and dashes', () => parseDayMonthYear('2-3-2026'), '2026-03-02'],
  ['parseDayMonthYear: not a real date', () => parseDayMonthYear('30/02/2026'), null],
  ['parseDayMonthYear: month first is refused when impossible', () => parseDayMonthYear('11/22/2026'), null],
  ['parseDayMonthYear: incomplete', () => parseDayMonthYear('22/11/26'), null],
]

for (const [name, run, expected] of ROWS) test(`formato: ${name}`, () => assert.deepEqual(run(), expected))
