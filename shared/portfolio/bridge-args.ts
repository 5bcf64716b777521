/**
 * The arguments of the Portfolio view's bridge method (`portfolio.export` in shared/bridge/contract.ts),
 * parsed by the hosts before a handler sees them.
 */
import { z } from 'zod';
import { sameTabNames, tabNameProblem } from '../workbook/tab-names';

export const portfolioArgs = {
  /** The view's tables, a tab each: named as Excel takes them, bounded in size. */
  export: z
    .object({
      tables: z
        .array(
          z
            .object({
              name: z.string().superRefine((name, ctx) => {
                const problem = tabNameProblem(name);
                if (problem) ctx.addIssue({ code: 'custom', message: `The tab name "${name}" ${problem}` });
              }),
              columns: z.array(z.string().max(200)).min(1).max(50),
              rows: z
                .array(z.array(z.union([z.string().max(1000), z.number(), z.null()])).max(50))
                .max(200_000),
            })
            .strict(),
        )
        .min(1)
        .max(20)
        .superRefine((tables, ctx) => {
          const same = sameTabNames(tables.map((table) => table.name));
          if (same) {
            ctx.addIssue({
              code: 'custom',
              message: `The tab names "${same[0]}" and "${same[1]}" are the same to Excel, which ignores case`,
            });
          }
        }),
    })
    .strict(),
};
