import { test } from 'node:test'
import { CONTRACTS, withService } from '../support/service.ts'
import { checkSequence, earlierDayScenarios } from './sequence.scenarios.ts'

for (const contract of CONTRACTS)
  for (const scenario of earlierDayScenarios) {
    test(`intake step 5 (${contract}): ${scenario.name}`, () =>
      withService({ config: { clientContract: contract, rateLimits: { insertPerMinute: 1000 } } }, (service) =>
        checkSequence(service, scenario),
      ))
  }
