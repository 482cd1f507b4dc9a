import { Injectable } from '@nestjs/common';

/** Where services read the time, so their tests can set it. */
export abstract class Clock {
  abstract now(): Date;
}

@Injectable()
export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}
