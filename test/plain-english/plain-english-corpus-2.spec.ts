import { describeCorpusPart } from './corpus-suite.js';

describeCorpusPart('sentences, lists, tables, selects, dates');
