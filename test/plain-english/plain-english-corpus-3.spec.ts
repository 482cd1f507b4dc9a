import { describeCorpusPart } from './corpus-suite.js';

describeCorpusPart('widgets, navigation, values');
