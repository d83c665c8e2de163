import { describeRedlockNodeLoss } from '../../testing';

/** The redlock-lib strategy with nodes down (its multi-process correctness is in ../correctness.int-spec.ts). */
describeRedlockNodeLoss('redlock-lib');
