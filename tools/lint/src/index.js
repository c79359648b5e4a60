import { boundariesRule } from './boundaries-rule.js';

/** ESLint plugin with the workspace's layering rule. */
export default { rules: { layers: boundariesRule } };
