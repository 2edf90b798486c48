/** A throw-away certificate authority and VOMS signer in the grid file layouts, for the dev stack and tests. */
package io.ferry.dev.testca;
