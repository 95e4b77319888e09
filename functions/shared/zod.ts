/**
 * zod/mini, the tree-shakeable build of zod (functions instead of methods: `z.optional(x)`,
 * `x.check(z.minLength(1))`), for all runtime code: full zod adds ~450 KB to every Lambda bundle.
 *
 * Import it as a namespace, `import * as z from '…/shared/zod'`: a bundler keeps only the members
 * used. (`import { z } from 'zod/mini'` takes zod's whole namespace object, every locale included.)
 * zod/mini loads no locale of its own, so every issue message would read "Invalid input"; English
 * is registered here, before any schema parses, as full zod does on first use.
 */
import { config } from 'zod/mini';
import { en } from 'zod/locales';

config(en());

export * from 'zod/mini';
