/**
 * `virtgate check` parses each zod schema once (its flags, the inventory) and exits. zod's
 * default compiles a fast parser per object schema with `new Function`, which pays off only over
 * many parses; here it is start-up time spent for nothing. Imported first by check.ts, since zod
 * reads the setting when a schema is built.
 */
import { z } from 'zod';

z.config({ jitless: true });
