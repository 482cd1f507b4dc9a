import { describeCorpusPart } from './corpus-suite.js';

describeCorpusPart('web tasks, forms');
