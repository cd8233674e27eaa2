package org.lockstep.app;
public final class Launcher { public static void main(String[] a) { System.out.println("hi"); } }
