enum FMTestSupportModule {}
