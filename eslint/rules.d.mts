import type { Rule } from 'eslint';
declare const plugin: { rules: { layers: Rule.RuleModule; 'no-cycle': Rule.RuleModule } };
export default plugin;
