import type { Rule } from 'eslint';
declare const plugin: {
  rules: { layers: Rule.RuleModule; 'no-cycle': Rule.RuleModule; 'feature-api': Rule.RuleModule };
};
export const DOORS: string[];
export default plugin;
